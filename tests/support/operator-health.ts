/**
 * The operator's view of GET /api/health (its details need `Authorization: Bearer <HEALTH_SECRET>`): a
 * secret for the server's environment and the header that sends it.
 */
export const TEST_HEALTH_SECRET = 'test-health-secret-0123456789';
export const operatorHeaders = { authorization: `Bearer ${TEST_HEALTH_SECRET}` } as const;

/** A health request as the operator sends it; sets HEALTH_SECRET in this process's environment. */
export function operatorHealthRequest(url: string): Request {
  process.env.HEALTH_SECRET = TEST_HEALTH_SECRET;
  return new Request(url, { headers: operatorHeaders });
}
