import type { z } from 'zod';
import { MSG } from '../../../src/lib/messages';
import type { FormAnswer } from '../../../src/lib/forms';
import { clientId } from '../client-identity';
import { enforceRateLimit } from '../rate-limit';
import { HttpError, errorResponse, json, JSON_BODY_LIMIT, readBytes, requireMethod, zodMessage } from '../http';
import { deliverSoon } from '../delivery/worker';
import { recordDoubt } from './doubts';
import { HONEYPOT_FIELD } from '../../../src/lib/forms';

/**
 * One flow for the first-party forms (contact, newsletter, leads). They accept JSON from islands and
 * application/x-www-form-urlencoded from plain HTML forms; a form post is answered with a redirect back to
 * the page (`?sent=1`, or `?error=…`) so the forms work without JavaScript.
 */
export interface FormDefinition<S extends z.ZodType> {
  /** Rate-limit bucket name, e.g. 'contact'. */
  name: 'contact' | 'leads' | 'newsletter';
  schema: S;
  /** Stores the submission with its outbox events (in one transaction); returns the events' ids. */
  save(input: z.output<S>, from: { client: string }): Promise<(string | null)[]>;
  /** What the visitor is told on success (and on a doubtful submission, which must look the same). */
  message: string;
  /** Where a form post returns when the request has no same-origin Referer. */
  fallbackPath: string;
}

/** Submissions per client and form, in a fixed window. */
const FORM_LIMIT = { max: 10, windowSeconds: 600 };

export async function submitForm<S extends z.ZodType>(
  req: Request,
  context: { ip?: string; waitUntil?: (promise: Promise<unknown>) => void } | undefined,
  form: FormDefinition<S>,
): Promise<Response> {
  const isFormPost = (req.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
  // An error goes back to the page the form is on; only a success follows the form's own `redirect` (a "sent"
  // page or fragment must never greet a refused submission).
  const back = returnPath(req, undefined, form.fallbackPath);
  try {
    requireMethod(req, 'POST');
    const fields = await readFields(req, isFormPost);
    const onward = returnPath(req, fields.redirect, form.fallbackPath);
    // A filled honeypot is probably a bot: answered exactly like a success, notified to nobody, but kept for the
    // day's digest of doubtful submissions (doubts.ts), so a real person caught by the guard is not lost.
    const honeypot = fields[HONEYPOT_FIELD];
    if (honeypot !== undefined && honeypot !== '') {
      await recordDoubt(form.name, fields, 'the hidden field was filled in', clientId(context));
      return answer(isFormPost, onward, form.message);
    }

    const parsed = form.schema.safeParse(fields);
    if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));

    await enforceRateLimit({ key: `form:${form.name}:${clientId(context)}`, ...FORM_LIMIT }, { message: MSG.tooManyRequests });

    const events = await form.save(parsed.data, { client: clientId(context) });
    // The owner's notice and the visitor's e-mail leave right after the answer; the outbox's worker is the net.
    deliverSoon(context, events);
    return answer(isFormPost, onward, form.message);
  } catch (error) {
    const response = errorResponse(error);
    if (!isFormPost || response.status === 405) return response;
    const { error: message } = (await response.json()) as { error: string };
    return redirectTo(back, { error: message });
  }
}

async function readFields(req: Request, isFormPost: boolean): Promise<Record<string, unknown>> {
  const type = req.headers.get('content-type') ?? '';
  if (!isFormPost && !type.startsWith('application/json')) {
    throw new HttpError(415, 'Send the form as application/json or application/x-www-form-urlencoded');
  }
  const text = (await readBytes(req, JSON_BODY_LIMIT)).toString('utf8');
  if (isFormPost) return Object.fromEntries(new URLSearchParams(text));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, MSG.invalidJson);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'Expected a JSON object');
  return body as Record<string, unknown>;
}

function answer(isFormPost: boolean, back: string, message: string): Response {
  const sent: FormAnswer = { success: true, message };
  return isFormPost ? redirectTo(back, { sent: '1' }) : json(sent);
}

/**
 * Where a form post returns: the form's own `redirect` field when it is one of the site's page paths, else
 * the same-origin page it was posted from (Referer), else fallbackPath. Never another site.
 */
function returnPath(req: Request, requested: unknown, fallbackPath: string): string {
  const local = typeof requested === 'string' ? sitePath(requested) : null;
  if (local) return local;
  const referer = req.headers.get('referer');
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.origin === new URL(req.url).origin) return `${from.pathname}${from.search}`;
    } catch {
      // unparsable Referer: use the fallback
    }
  }
  return fallbackPath;
}

/** Site pages are made of slug segments only. */
const PAGE_PATH = /^(\/[a-z0-9][a-z0-9-]*)*\/?$/;

/**
 * `requested` as a path of this site, or null. Checked after the URL parser has normalised it (dot
 * segments, backslashes, encodings), so `/.//evil.example` or `/\evil.example` cannot turn into a
 * protocol-relative address once the browser reads the Location header.
 */
export function sitePath(requested: string): string | null {
  if (!requested.startsWith('/')) return null;
  const base = 'http://site.invalid';
  let url: URL;
  try {
    url = new URL(requested, base);
  } catch {
    return null;
  }
  if (url.origin !== base || !PAGE_PATH.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** 303 to a local path with the outcome (`sent=1` or `error=…`) in its query, keeping any #fragment. */
function redirectTo(localPath: string, params: Record<string, string>): Response {
  const target = new URL(localPath, 'http://local');
  target.searchParams.delete('sent');
  target.searchParams.delete('error');
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return new Response(null, {
    status: 303,
    headers: { Location: `${target.pathname}${target.search}${target.hash}`, 'Cache-Control': 'no-store' },
  });
}
