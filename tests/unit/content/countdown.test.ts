import { describe, expect, it } from 'vitest';
import { COUNTDOWN_START, describe as describeCountdown, isZero, tick, toSeconds } from '../../../src/lib/countdown';

describe('countdown', () => {
  it('starts at 7d 23h 59m 59s', () => {
    expect(COUNTDOWN_START).toEqual({ days: 7, hours: 23, minutes: 59, seconds: 59 });
  });

  it('borrows from the larger units', () => {
    expect(tick({ days: 1, hours: 2, minutes: 3, seconds: 0 })).toEqual({ days: 1, hours: 2, minutes: 2, seconds: 59 });
    expect(tick({ days: 1, hours: 2, minutes: 0, seconds: 0 })).toEqual({ days: 1, hours: 1, minutes: 59, seconds: 59 });
    expect(tick({ days: 1, hours: 0, minutes: 0, seconds: 0 })).toEqual({ days: 0, hours: 23, minutes: 59, seconds: 59 });
  });

  it('reaches zero after exactly the start duration and stays there', () => {
    let v = COUNTDOWN_START;
    const total = toSeconds(v);
    for (let i = 0; i < total; i++) v = tick(v);
    expect(isZero(v)).toBe(true);
    expect(tick(v)).toEqual(v);
    expect(describeCountdown(v)).toBe('The offer has ended.');
  });

  it('describes the time left to the minute', () => {
    expect(describeCountdown({ days: 1, hours: 1, minutes: 1, seconds: 30 })).toBe('1 day, 1 hour and 1 minute left');
  });
});
