/** Offer countdown of the missed-call page: 7d 23h 59m 59s, one tick a second. */
export interface CountdownValue {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export const COUNTDOWN_START: CountdownValue = { days: 7, hours: 23, minutes: 59, seconds: 59 };
export const COUNTDOWN_TICK_MS = 1000;

export function isZero(v: CountdownValue): boolean {
  return v.days === 0 && v.hours === 0 && v.minutes === 0 && v.seconds === 0;
}

/** One second less, borrowing from the larger units (seconds and minutes reset to 59, hours to 23). */
export function tick(v: CountdownValue): CountdownValue {
  if (isZero(v)) return v;
  if (v.seconds > 0) return { ...v, seconds: v.seconds - 1 };
  if (v.minutes > 0) return { ...v, minutes: v.minutes - 1, seconds: 59 };
  if (v.hours > 0) return { ...v, hours: v.hours - 1, minutes: 59, seconds: 59 };
  return { days: v.days - 1, hours: 23, minutes: 59, seconds: 59 };
}

export function toSeconds(v: CountdownValue): number {
  return ((v.days * 24 + v.hours) * 60 + v.minutes) * 60 + v.seconds;
}

/** Text for screen readers, e.g. '7 days, 23 hours and 59 minutes left'. */
export function describe(v: CountdownValue): string {
  if (isZero(v)) return 'The offer has ended.';
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  return `${part(v.days, 'day')}, ${part(v.hours, 'hour')} and ${part(v.minutes, 'minute')} left`;
}
