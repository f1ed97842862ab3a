import { useEffect, useRef, useState } from 'react';
import { COUNTDOWN_START, COUNTDOWN_TICK_MS, describe, isZero, tick, type CountdownValue } from '../lib/countdown';

/**
 * Offer countdown: ticks every second with borrow and stops at zero. The digits are hidden from screen
 * readers; a visually hidden polite live region is updated at most once a minute instead.
 */
export default function Countdown({ start = COUNTDOWN_START }: { start?: CountdownValue }) {
  const [value, setValue] = useState(start);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (isZero(start)) return;
    timer.current = window.setInterval(() => setValue(tick), COUNTDOWN_TICK_MS);
    return () => window.clearInterval(timer.current);
  }, [start]);

  useEffect(() => {
    if (isZero(value)) window.clearInterval(timer.current);
  }, [value]);

  // The live text changes only when the minute changes (or the offer ends): at most once a minute.
  const announcement = describe(value);

  const units: [keyof CountdownValue, string][] = [
    ['days', 'Days'],
    ['hours', 'Hours'],
    ['minutes', 'Minutes'],
    ['seconds', 'Seconds'],
  ];
  return (
    <div data-countdown data-ended={isZero(value) || undefined}>
      <div className="grid grid-cols-4 gap-3 text-center" aria-hidden="true">
        {units.map(([key, label]) => (
          <div key={key} className="rounded-xl border border-border bg-surface-2 p-3">
            <span className="block text-3xl font-extrabold tabular-nums sm:text-4xl" data-unit={key}>
              {String(value[key]).padStart(2, '0')}
            </span>
            <span className="text-xs uppercase tracking-wide text-muted">{label}</span>
          </div>
        ))}
      </div>
      <p className="sr-only" aria-live="polite" data-countdown-live>
        {announcement}
      </p>
    </div>
  );
}
