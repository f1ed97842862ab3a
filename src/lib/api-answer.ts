import { z } from './zod';
import { MSG } from './messages';

/**
 * The island side of every JSON endpoint: an answer is read with the same zod schema the function builds it from
 * (each domain's in src/lib/<domain>/), so a server change that breaks what an island expects fails a contract test
 * (tests/integration/contracts/) instead of reaching a buyer as `undefined`. A refusal (non-2xx or
 * `{ success: false }`) becomes an ApiError with the server's words; a 2xx answer that does not match its schema
 * becomes the same ApiError with the message the buyer would see for a server error, never a crash later on.
 */

/** Every function's refusal (netlify/lib/http.ts `errorJson`): `{ success: false, error }`. */
export const errorAnswerSchema = z.object({ success: z.literal(false), error: z.string() });
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;

/** An acknowledgement with nothing more to say (a batch photo's retry, a scan's choice). */
export const doneAnswerSchema = z.object({ success: z.literal(true) });
export type DoneAnswer = z.infer<typeof doneAnswerSchema>;

/** The short acknowledgement several endpoints give (forms, lost links, the inbox's sign-in and retry). */
export const messageAnswerSchema = z.object({ success: z.literal(true), message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswerSchema>;

export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The body as JSON, or undefined when it is not JSON (an HTML error page of a proxy, an empty body). */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The server's own words in a refusal, when it sent some. */
export function refusalText(body: unknown): string | undefined {
  return z.object({ error: z.string().min(1) }).safeParse(body).data?.error;
}

/**
 * An answer, as its schema reads it. `fallback` is the message of a refusal without words and of an answer that does
 * not match the schema.
 */
export function readAnswer<S extends z.ZodType>(schema: S, status: number, body: unknown, fallback: string): z.output<S> {
  const ok = status >= 200 && status < 300;
  // A schema that admits `success: false` (a job's status: a failed job is an answer, not a refusal) reads it.
  const parsed = ok ? schema.safeParse(body) : undefined;
  if (parsed?.success) return parsed.data;
  throw new ApiError(refusalText(body) ?? fallback, status);
}

/** readAnswer on a fetch Response. */
export async function readResponse<S extends z.ZodType>(schema: S, res: Response, fallback: string): Promise<z.output<S>> {
  const text = await res.text().catch(() => '');
  return readAnswer(schema, res.status, jsonOf(text), fallback);
}

/** A JSON request (no body for GET/DELETE), its answer read with `schema`; a failed connection is ApiError status 0. */
export async function requestJson<S extends z.ZodType>(
  schema: S,
  method: string,
  url: string,
  { body, headers = {}, fallback, fetchImpl = fetch }: { body?: unknown; headers?: Record<string, string>; fallback: string; fetchImpl?: typeof fetch },
): Promise<z.output<S>> {
  const res = await fetchImpl(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  }).catch((error: unknown) => {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ApiError(MSG.networkError, 0);
  });
  return readResponse(schema, res, fallback);
}
