import { z } from './zod';
import { MSG } from './messages';
import { emailSchema } from './email-schema';

/**
 * A paid package as the buyer sees it (the success page, the tool and the e-mails read this shape from the server:
 * `/api/orders/{id}` carries one per package line, `/api/packages` answers one for a link), and the requests and
 * answers of /api/packages (netlify/functions/packages.mts). No Node imports here.
 */
export const ALLOWANCE_STATES = ['active', 'used-up', 'expired', 'revoked'] as const;
export type AllowanceState = (typeof ALLOWANCE_STATES)[number];

export const allowanceSummarySchema = z.object({
  packageId: z.string(),
  name: z.string(),
  imagesTotal: z.number().int(),
  imagesUsed: z.number().int(),
  imagesLeft: z.number().int(),
  /** ISO time after which nothing more can be taken. */
  expiresAt: z.string(),
  state: z.enum(ALLOWANCE_STATES),
  /** The secret link that opens the package in the tool (site-relative: `/image-video-transformation#package=…`). */
  link: z.string(),
});
export type AllowanceSummary = z.infer<typeof allowanceSummarySchema>;

/** GET /api/packages (the key in its header): the allowance, and its newest batch, which the tool resumes. */
export const packageAnswerSchema = z.object({ success: z.literal(true), allowance: allowanceSummarySchema, batchId: z.string().nullable() });
export type PackageAnswer = z.infer<typeof packageAnswerSchema>;

/** POST /api/packages/take: a finished image result taken clean for one image (again for free). */
export const takeRequestSchema = z.object({ transformationId: z.uuid({ error: MSG.invalidTransformationId }) }).strict();
export const takeAnswerSchema = z.object({
  success: z.literal(true),
  outcome: z.enum(['taken', 'already']),
  imagesUsed: z.number().int(),
  imagesTotal: z.number().int(),
  imagesLeft: z.number().int(),
  downloadUrl: z.string(),
  message: z.string(),
});
export type TakeAnswer = z.infer<typeof takeAnswerSchema>;

/** POST /api/packages/link ("Lost your link?"): the same answer whatever the address (../api-answer.ts messageAnswerSchema). */
export const lostLinkRequestSchema = z.object({ email: emailSchema }).strict();

