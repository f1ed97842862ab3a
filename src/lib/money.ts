/** Money is summed in cents so 1.99 + 4.99 is exactly 6.98. */
export function sumPrices(prices: readonly number[]): number {
  return prices.reduce((cents, p) => cents + Math.round(p * 100), 0) / 100;
}

export function formatPrice(value: number): string {
  return `$${value.toFixed(2)}`;
}
