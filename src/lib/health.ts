import { z } from './zod';

/**
 * What GET /api/health tells anyone: whether the site works (also its status code, 200 or 503), whether it is
 * degraded, and the two
 * things the pages need to know — whether videos can be made and which checkout runs. Nothing about how the
 * deploy is configured: that (adapters, the pages' policy check, what a misconfiguration is) is answered only
 * to the operator, who sends `Authorization: Bearer <HEALTH_SECRET>`.
 */
export const publicHealthSchema = z.object({
  ok: z.boolean(),
  /**
   * `down` when the site does not work (ok false); `degraded` when it works but something the operator must look at
   * keeps failing (an owner's notice that cannot be delivered); `ok` otherwise. What failed is for the operator only.
   */
  status: z.enum(['ok', 'degraded', 'down']),
  video: z.object({ available: z.boolean() }),
  payments: z.object({ mode: z.enum(['demo', 'stripe', 'misconfigured']) }),
});
export type PublicHealth = z.infer<typeof publicHealthSchema>;
