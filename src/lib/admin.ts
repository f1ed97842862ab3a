import { z } from './zod';
import { emailSchema } from './email-schema';
import { MSG } from './messages';
import { ApiError, doneAnswerSchema, messageAnswerSchema, requestJson } from './api-answer';

/**
 * The team's inbox at /admin/inbox (src/islands/admin/Inbox.tsx) and its JSON functions under /api/admin/*:
 * the tabs, the addresses, and the rows each tab lists. Visitors never sign in; only an address in
 * OPERATOR_EMAILS can ask for a one-time sign-in link.
 */
export const INBOX_TABS = ['orders', 'messages', 'leads', 'subscribers', 'doubtful', 'outbox'] as const;
export type InboxTab = (typeof INBOX_TABS)[number];

export const INBOX_TAB_LABELS: Record<InboxTab, string> = {
  orders: 'Orders',
  messages: 'Messages',
  leads: 'Leads',
  subscribers: 'Subscribers',
  doubtful: 'Doubtful',
  outbox: 'Outbox',
};

export const ADMIN_PATHS = {
  inbox: '/admin/inbox',
  /** The e-mailed link's page: its button POSTs the token back here. */
  signIn: '/admin/inbox/sign-in',
  api: {
    signIn: '/api/admin/sign-in',
    session: '/api/admin/session',
    records: (tab: InboxTab, format: 'json' | 'csv' = 'json') => `/api/admin/records/${tab}${format === 'csv' ? '?format=csv' : ''}`,
    retry: '/api/admin/outbox/retry',
  },
} as const;

/** How long a sign-in link works, and a session lasts. */
export const SIGN_IN_LINK_MINUTES = 15;
export const SESSION_HOURS = 12;

/** Rows a tab shows (newest first); the CSV export has every row. */
export const INBOX_PAGE_ROWS = 200;

// The requests and answers of /api/admin/* (netlify/functions/admin-*.mts), read by the inbox with these schemas.

/** A tab's rows: column names in display order, values as text (null for none). */
export const inboxTableSchema = z.object({
  tab: z.enum(INBOX_TABS),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string().nullable())),
  /** Rows in all (the table may show fewer). */
  total: z.number().int(),
  /** The outbox tab: each row's delivery id, for "send again". */
  ids: z.array(z.string()).optional(),
});
export type InboxTable = z.infer<typeof inboxTableSchema>;

/** GET /api/admin/records/{tab}. */
export const inboxTableAnswerSchema = inboxTableSchema.extend({ success: z.literal(true) });
export type InboxTableAnswer = z.infer<typeof inboxTableAnswerSchema>;

export const inboxSessionSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type InboxSession = z.infer<typeof inboxSessionSchema>;

/** GET /api/admin/session: who is signed in (401 without a session). DELETE answers `{ success: true }`. */
export const inboxSessionAnswerSchema = inboxSessionSchema.extend({ success: z.literal(true) });
export type InboxSessionAnswer = z.infer<typeof inboxSessionAnswerSchema>;

/** POST /api/admin/sign-in → the same `{ success, message }` for every address (../api-answer.ts messageAnswerSchema). */
export const signInRequestSchema = z.object({ email: emailSchema });

/** POST /api/admin/outbox/retry → `{ success, message }`. */
export const outboxRetryRequestSchema = z.object({ id: z.uuid() });

// The inbox's calls (src/islands/admin/Inbox.tsx), each answer read with its schema (./api-answer.ts): a refusal or
// an answer of another shape is an ApiError with the server's words, or MSG.serverError.

const signedOutIsNull = (error: unknown): null => {
  if (error instanceof ApiError && error.status === 401) return null;
  throw error;
};

/** Who is signed in; null without a session (401). */
export async function loadInboxSession(fetchImpl: typeof fetch = fetch): Promise<InboxSession | null> {
  return requestJson(inboxSessionAnswerSchema, 'GET', ADMIN_PATHS.api.session, { fallback: MSG.serverError, fetchImpl })
    .then(({ email, expiresAt }) => ({ email, expiresAt }), signedOutIsNull);
}

/** A tab's rows; null when the session ended (401). */
export async function loadInboxTable(tab: InboxTab, fetchImpl: typeof fetch = fetch): Promise<InboxTable | null> {
  return requestJson(inboxTableAnswerSchema, 'GET', ADMIN_PATHS.api.records(tab), { fallback: MSG.serverError, fetchImpl })
    .then(({ success: _success, ...table }) => table, signedOutIsNull);
}

/** "Send again" for an outbox delivery: the server's note. */
export async function retryDelivery(id: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  return (await requestJson(messageAnswerSchema, 'POST', ADMIN_PATHS.api.retry, { body: { id }, fallback: MSG.serverError, fetchImpl })).message;
}

/** Asks for a sign-in link: the same answer for every address. */
export async function askForSignInLink(email: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  return (await requestJson(messageAnswerSchema, 'POST', ADMIN_PATHS.api.signIn, { body: { email }, fallback: MSG.serverError, fetchImpl })).message;
}

/** Signs out (the cookie is cleared); a failure changes nothing the page shows. */
export async function signOutOfInbox(fetchImpl: typeof fetch = fetch): Promise<void> {
  await requestJson(doneAnswerSchema, 'DELETE', ADMIN_PATHS.api.session, { fallback: MSG.serverError, fetchImpl }).catch(() => undefined);
}
