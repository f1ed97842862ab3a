import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { embedProblems, readCsp } from '../../../scripts/lib/csp.mjs';

const csp = readCsp(readFileSync(new URL('../../../netlify.toml', import.meta.url), 'utf8'));

describe('Content-Security-Policy and embeds', () => {
  it('allows no third-party frames when no embed is configured', () => {
    expect(csp['frame-src']).toEqual(["'self'"]);
    expect(embedProblems(csp, {})).toEqual([]);
  });

  it('names the missing origin when an embed is configured but not allowed', () => {
    const problems = embedProblems(csp, { PUBLIC_BOOKING_CALENDAR_URL: 'https://calendar.example.net/book/123' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('add https://calendar.example.net to frame-src');
  });

  it('accepts a configured embed whose origin is allowed', () => {
    const withCalendar = { ...csp, 'frame-src': ["'self'", 'https://calendar.example.net'] };
    expect(embedProblems(withCalendar, { PUBLIC_BOOKING_CALENDAR_URL: 'https://calendar.example.net/book/123' })).toEqual([]);
  });
});
