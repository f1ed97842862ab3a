/** A dollar amount in whole cents (1.99 → 199): how sums are added and how Stripe is charged. */
export function toCents(value: number): number {
  return Math.round(value * 100);
}

/** Money is summed in cents so 1.99 + 4.99 is exactly 6.98. */
export function sumPrices(prices: readonly number[]): number {
  return prices.reduce((cents, p) => cents + toCents(p), 0) / 100;
}

export function formatPrice(value: number): string {
  return `$${value.toFixed(2)}`;
}
