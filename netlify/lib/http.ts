import { z } from 'zod';
import { dbErrorAnswer } from './db/errors';
import { readCapped } from './read-capped';
import { SigningNotConfiguredError } from './signing';
import { StorageNotConfiguredError } from './storage/errors';
import { API_HEADERS } from './security-headers';
import { isPreviewDeploy, rememberPlatformContext } from './deploy';
import { MSG } from '../../src/lib/messages';
import { NOINDEX_HEADER } from '../../src/lib/deploy-context';

/**
 * Shared pieces of every handler: JSON answers in the `{ success: false, error }` shape, body reading
 * with a streaming size cap, zod parsing, one error-to-status mapping, and the security headers of every
 * answer (`withErrors`).
 */
export const JSON_BODY_LIMIT = 64 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

export function errorJson(status: number, error: string, headers: Record<string, string> = {}): Response {
  return json({ success: false, error }, status, headers);
}

export function requireMethod(req: Request, ...methods: string[]): void {
  if (!methods.includes(req.method)) {
    throw new HttpError(405, `Method ${req.method} not allowed`, { Allow: methods.join(', ') });
  }
}

/**
 * Reads the body up to `limit` bytes and stops there: a declared or streamed size over the limit is a 413
 * without buffering the rest.
 */
export async function readBytes(req: Request, limit: number): Promise<Buffer> {
  return readCapped(req.body, req.headers.get('content-length'), limit, () => new HttpError(413, MSG.payloadTooLarge(limit)));
}

export async function readJson(req: Request, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const text = (await readBytes(req, limit)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, MSG.invalidJson);
  }
}

/** Reads a multipart/form-data body of at most `limit` bytes (413 above it, 400 if it does not parse). */
export async function readMultipart(req: Request, limit: number): Promise<FormData> {
  // The multipart boundary is case-sensitive: keep the header as sent.
  const type = req.headers.get('content-type') ?? '';
  const body = await readBytes(req, limit);
  try {
    return await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new HttpError(400, 'Invalid form data');
  }
}

export const isMultipart = (req: Request) => (req.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/** Parses with a zod schema; the first issue becomes the 400 message. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new HttpError(400, zodMessage(result.error));
  return result.data;
}

export function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/** Maps any thrown error to an answer; unexpected ones are logged and hidden behind a generic 500. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) return errorJson(error.status, error.message, error.headers);
  if (error instanceof z.ZodError) return errorJson(400, zodMessage(error));
  const db = dbErrorAnswer(error);
  if (db) return errorJson(db.status, db.message);
  if (error instanceof SigningNotConfiguredError || error instanceof StorageNotConfiguredError) return errorJson(503, error.message);
  console.error('[api] unexpected error:', error);
  return errorJson(500, MSG.serverError);
}

/**
 * The security headers on a function's answer (Netlify's static headers never reach functions). A header
 * the function set itself stays, except the policy, which is always the API's. On a preview or branch
 * deploy every answer also says noindex, as its static files do (dist/_headers).
 */
export function withSecurityHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  const required = isPreviewDeploy() ? { ...API_HEADERS, ...NOINDEX_HEADER } : API_HEADERS;
  for (const [name, value] of Object.entries(required)) {
    if (name === 'Content-Security-Policy' || !headers.has(name)) headers.set(name, value);
  }
  // A new Response rather than editing in place: a fetched or redirect answer has immutable headers.
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

type Handler<C> = (req: Request, context: C) => Promise<Response>;

/**
 * Every function's default export goes through this: thrown errors become answers, every answer gets the
 * security headers. Netlify's `context` tells which deploy this is (production, preview …).
 */
export function withErrors<C = unknown>(handler: Handler<C>): (req: Request, context?: C) => Promise<Response> {
  return async (req, context) => {
    rememberPlatformContext(context);
    let response: Response;
    try {
      response = await handler(req, context as C);
    } catch (error) {
      response = errorResponse(error);
    }
    return withSecurityHeaders(response);
  };
}

/** The last path segment after `prefix` (e.g. `/api/orders/` → the id), decoded; 400 for a broken encoding. */
export function pathAfter(req: Request, prefix: string): string {
  const { pathname } = new URL(req.url);
  if (!pathname.startsWith(prefix)) return '';
  return decodeSegment(pathname.slice(prefix.length));
}

/** decodeURIComponent that answers 400 instead of throwing a URIError (which would be a 500). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, MSG.badPathEncoding);
  }
}
