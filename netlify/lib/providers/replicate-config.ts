/** How often both Replicate clients (colorizer, video) poll a running prediction, unless REPLICATE_POLL_MS says. */
export const REPLICATE_POLL_MS_DEFAULT = 1000;

export function replicatePollMs(env: Record<string, string | undefined> = process.env): number {
  const ms = Number(env.REPLICATE_POLL_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : REPLICATE_POLL_MS_DEFAULT;
}
