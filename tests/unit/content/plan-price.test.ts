import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planPriceLabel } from '../../../src/content/plan-price';

describe('prices are written once', () => {
  it("a page's price label is its popular plan's price and period, else its first plan's", () => {
    const plan = (price: string, extra = {}) => ({ price, ...extra });
    expect(planPriceLabel([{ type: 'hero' }, { type: 'pricing', plans: [plan('$14.99', { period: '/month' })] }])).toBe('$14.99/month');
    expect(planPriceLabel([{ type: 'pricing', plans: [plan('$39'), plan('$69', { period: '/mo', popular: true })] }])).toBe('$69/mo');
    expect(planPriceLabel([{ type: 'hero' }])).toBeNull();
  });

  it('no module of src/lib but the catalogue states a price: marketing prices live on their pages, tool prices in catalog.ts', () => {
    const dir = path.resolve(__dirname, '../../../src/lib');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && f !== 'catalog.ts');
    const stating = files.filter((f) => /\$\d/.test(readFileSync(path.join(dir, f), 'utf8').replace(/\$\{/g, '')));
    expect(stating).toEqual([]);
  });
});
