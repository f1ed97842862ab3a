// This process's and its children's (ffmpeg's) resources, from /proc: what the video benchmark reports beside wall time.
import { readFileSync } from 'node:fs';

/** RSS of this process plus its live children (ffmpeg), from /proc, in MiB. */
export function rssWithChildren(): number {
  const page = 4096;
  let total = process.memoryUsage().rss;
  try {
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const pid of children) {
      try {
        total += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * page;
      } catch {
        /* exited */
      }
    }
  } catch {
    /* not Linux */
  }
  return total / 1024 / 1024;
}

/** CPU seconds of reaped children (ffmpeg), from /proc/self/stat. */
export function childCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime and stime of waited-for children, in clock ticks (100 per second on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

