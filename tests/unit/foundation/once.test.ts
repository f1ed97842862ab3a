import { describe, expect, it } from 'vitest';
import { firstTimeInSession } from '../../../src/lib/once';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('firstTimeInSession', () => {
  it('is true once per key, then false', () => {
    const storage = memoryStorage();
    expect(firstTimeInSession('order:a', storage)).toBe(true);
    expect(firstTimeInSession('order:a', storage)).toBe(false);
    expect(firstTimeInSession('order:b', storage)).toBe(true);
  });

  it('still answers true when storage is missing or refuses writes', () => {
    expect(firstTimeInSession('x', null)).toBe(true);
    const refusing = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(firstTimeInSession('x', refusing)).toBe(true);
  });
});
