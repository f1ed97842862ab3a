import { z } from 'zod';
import { dbErrorAnswer } from './db/errors';
import { readCapped } from './read-capped';
import { SigningNotConfiguredError } from './signing';
import { StorageNotConfiguredError } from './storage/errors';
import { API_HEADERS } from './security-headers';
import { deployOrigin, isPreviewDeploy, rememberPlatformContext } from './running-deploy';
import { MSG } from '../../src/lib/messages';
import { firstOrigin, NOINDEX_HEADER } from '../../src/lib/deploy-context';
import { IMAGE_TYPES } from '../../src/lib/tool/constants';

/**
 * Shared pieces of every handler: the request guard of every state-changing request, JSON answers in the
 * `{ success: false, error }` shape, body reading with a streaming size cap, zod parsing, one
 * error-to-status mapping, and the security headers of every answer (`withErrors`).
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

/**
 * An endpoint's own words for the pipeline's refusals (the chat's: src/lib/chat/errors.ts); MSG's where it gives none.
 * The status codes stay the pipeline's.
 */
export interface RequestWords {
  methodNotAllowed?: (method: string, allowed: readonly string[]) => string;
  crossSite?: string;
  unsupportedBody?: string;
  tooLarge?: (limitBytes: number) => string;
  invalidJson?: string;
  /** The 400 of a body its schema refuses. */
  invalid?: (error: z.ZodError) => string;
}

export function requireMethod(req: Request, ...methods: string[]): void {
  allowMethods(req, methods);
}

function allowMethods(req: Request, methods: readonly string[], words: RequestWords = {}): void {
  if (!methods.includes(req.method)) {
    const message = words.methodNotAllowed?.(req.method, methods) ?? `Method ${req.method} not allowed`;
    throw new HttpError(405, message, { Allow: methods.join(', ') });
  }
}

const tooLargeError = (limit: number, words: RequestWords) => new HttpError(413, words.tooLarge?.(limit) ?? MSG.payloadTooLarge(limit));

/**
 * Reads the body up to `limit` bytes and stops there: a declared or streamed size over the limit is a 413
 * without buffering the rest.
 */
export async function readBytes(req: Request, limit: number, words: RequestWords = {}): Promise<Buffer> {
  return readCapped(req.body, req.headers.get('content-length'), limit, () => tooLargeError(limit, words));
}

export async function readJson(req: Request, limit = JSON_BODY_LIMIT, words: RequestWords = {}): Promise<unknown> {
  const text = (await readBytes(req, limit, words)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, words.invalidJson ?? MSG.invalidJson);
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

/** Parses with a zod schema; the first issue becomes the 400 message (in the endpoint's words when it has them). */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, words: RequestWords = {}): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new HttpError(400, words.invalid?.(result.error) ?? zodMessage(result.error));
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

// ——— The request guard ———

/**
 * The bodies a state-changing endpoint takes: `json` (application/json), `multipart` (a file from the
 * page), `upload` (the raw bytes of a photo, as a signed upload sends them), `form` (a plain HTML form's
 * application/x-www-form-urlencoded, from a page that works without JavaScript) or `none` (no body, e.g. DELETE).
 */
export type BodyKind = 'json' | 'multipart' | 'upload' | 'form' | 'none';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const UPLOAD_TYPES: readonly string[] = IMAGE_TYPES;

/** The request's media type, lower case, without parameters ('' when none was sent). */
const mediaType = (req: Request) => (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * The origins this site answers on: the request's own, the deploy's address and the public site address.
 * `extra` adds one an endpoint knows of (the chat's configured site URL).
 */
function siteOrigins(req: Request, extra: readonly string[] = []): string[] {
  const env = process.env;
  const known = [new URL(req.url).origin, deployOrigin(env), firstOrigin(env, ['PUBLIC_SITE_URL']), firstOrigin(env, ['URL'])];
  for (const url of extra) known.push(firstOrigin({ url }, ['url']));
  return known.filter((origin): origin is string => !!origin);
}

/**
 * Whether a browser says this request comes from one of this site's own pages. Sec-Fetch-Site decides
 * when present (only `same-origin` passes: a sibling subdomain is another site); else Origin must be one of
 * the site's. A request with neither comes from no browser (curl, the server's own job trigger), so it
 * cannot carry a visitor's browser into an action they did not choose.
 */
export function isSameOrigin(req: Request, extraOrigins: readonly string[] = []): boolean {
  const fetchSite = req.headers.get('sec-fetch-site');
  if (fetchSite) return fetchSite.trim().toLowerCase() === 'same-origin';
  const origin = req.headers.get('origin');
  if (origin === null) return true;
  return siteOrigins(req, extraOrigins).includes(origin.trim());
}

/** Whether the body's declared type is one the endpoint takes. */
export function acceptsBody(req: Request, accepts: readonly BodyKind[]): boolean {
  const type = mediaType(req);
  return accepts.some((kind) =>
    kind === 'json' ? type === 'application/json'
      : kind === 'multipart' ? type === 'multipart/form-data'
        : kind === 'form' ? type === 'application/x-www-form-urlencoded'
          : kind === 'upload' ? UPLOAD_TYPES.includes(type)
            : type === '',
  );
}

/**
 * Why a request is refused before any work: 403 when a browser sent it from another site, 415 when its
 * body is not one the endpoint takes (a form or text/plain POST needs no CORS preflight, so only a
 * JSON-only endpoint keeps other sites' pages from posting to it). Null for a safe method or a request
 * that passes.
 */
export function guardRefusal(req: Request, accepts: readonly BodyKind[], extraOrigins: readonly string[] = []): 403 | 415 | null {
  if (SAFE_METHODS.has(req.method)) return null;
  if (!isSameOrigin(req, extraOrigins)) return 403;
  if (!acceptsBody(req, accepts)) return 415;
  return null;
}

/** The guard as an HttpError (see guardRefusal). */
export function guardRequest(req: Request, accepts: readonly BodyKind[], extraOrigins: readonly string[] = [], words: RequestWords = {}): void {
  const refused = guardRefusal(req, accepts, extraOrigins);
  if (refused === 403) throw new HttpError(403, words.crossSite ?? MSG.crossSite);
  if (refused === 415) throw new HttpError(415, words.unsupportedBody ?? MSG.unsupportedBody(accepts));
}

type Handler<C> = (req: Request, context: C) => Promise<Response>;

export interface HandlerOptions {
  /**
   * What a state-changing request to this function may carry (default: JSON only). `false` turns the guard
   * off, for the two endpoints other sites must reach: Stripe's signed webhook and the plain HTML forms.
   */
  accepts?: readonly BodyKind[] | false;
  /** The methods the endpoint answers: any other is a 405 (with Allow) before the guard. Else the handler's requireMethod decides. */
  methods?: readonly string[];
  /** Origins the same-origin check also accepts, read per request (the chat's configured site URL). */
  origins?: () => readonly string[];
  /**
   * The largest body the endpoint reads: a larger declared Content-Length is a 413 before the handler runs (readJson
   * with the same limit stops an undeclared or lying one while streaming). JSON_BODY_LIMIT is readJson's default.
   */
  bodyLimit?: number;
  /** The endpoint's own words for these refusals (pass the same to readJson and parseWith). */
  words?: RequestWords;
}

/** The request pipeline's checks before the handler: method, same origin and body type, declared size. */
function guardBefore(req: Request, accepts: readonly BodyKind[] | false, options: HandlerOptions): void {
  const words = options.words ?? {};
  if (options.methods) allowMethods(req, options.methods, words);
  if (accepts) guardRequest(req, accepts, options.origins?.() ?? [], words);
  if (options.bodyLimit !== undefined) {
    const declared = Number(req.headers.get('content-length') ?? '');
    if (Number.isFinite(declared) && declared > options.bodyLimit) throw tooLargeError(options.bodyLimit, words);
  }
}

/**
 * Every function's default export goes through this: a state-changing request passes the request guard
 * first (same origin, an accepted body type), thrown errors become answers, every answer gets the security
 * headers. Netlify's `context` tells which deploy this is (production, preview …).
 */
export function withErrors<C = unknown>(handler: Handler<C>, options: HandlerOptions = {}): (req: Request, context?: C) => Promise<Response> {
  const accepts = options.accepts ?? ['json'];
  return async (req, context) => {
    rememberPlatformContext(context);
    let response: Response;
    try {
      guardBefore(req, accepts, options);
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
