import os from 'node:os';

// How every speed benchmark measures: quantiles, a run's CPU time beside its wall time, and the host's load.
// The CPU time is the work a run costs, libvips' and V8's threads included: on a machine with two cores it
// exceeds the wall time; in a Netlify function (its CPU share set by its memory, 1024 MB by default), given one
// core or less, the wall time is at least the CPU time. The load says how busy the host was: on a shared one,
// wall and CPU times both swing between runs, so compare two heads over several alternated runs.

/** The q-quantile of xs, nearest rank (xs is not reordered). */
export function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The host's load averages over 1, 5 and 15 minutes, to 2 decimals. */
export const hostLoad = () => os.loadavg().map((v) => Number(v.toFixed(2)));

/** Starts a clock of this process's CPU time (user and system, every thread); the function returned reads the
 * milliseconds used since. */
export function cpuClock(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}
