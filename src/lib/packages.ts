import { persistentAtom } from '@nanostores/persistent';
import { z } from './zod';
import { MSG } from './messages';
import { emailSchema } from './email-schema';

/**
 * A paid package as the buyer sees it: the success page, the tool and the e-mails read this shape from the server
 * (`/api/orders/{id}` carries one per package line, `/api/packages` answers one for a link). No Node imports here.
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

// The requests and answers of /api/packages (netlify/functions/packages.mts).

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

/** The tool page's address with a package key: the key travels in the fragment, which no server, log or Referer sees. */
export const TOOL_PATH = '/image-video-transformation';
export const PACKAGE_FRAGMENT = 'package';
export const packageLinkPath = (key: string) => `${TOOL_PATH}#${PACKAGE_FRAGMENT}=${encodeURIComponent(key)}`;

/** The key in an address's fragment (`#package=…`), or null. */
export function keyFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const key = params.get(PACKAGE_FRAGMENT)?.trim();
  return key && /^[0-9a-fA-F-]{36}\.[0-9]{1,9}\.[A-Za-z0-9_-]{43}$/.test(key) ? key : null;
}

/** The header that carries the key to the server (never a query string: it would land in logs). */
export const PACKAGE_KEY_HEADER = 'x-package-key';

/**
 * The package this browser opened last, kept in localStorage like the cart: its key (the link's secret), so the
 * tool reopens it without the link. A malformed value reads as none.
 */
export const $packageKey = persistentAtom<string>('lumora-package-key', '', {
  encode: (value) => value,
  decode: (raw) => (keyFromHash(`#${PACKAGE_FRAGMENT}=${raw}`) ?? ''),
});

export const packageHeaders = (key: string | null | undefined): Record<string, string> => (key ? { [PACKAGE_KEY_HEADER]: key } : {});

/** "12 Dec 2027" in the buyer's own locale. */
export const expiryDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
