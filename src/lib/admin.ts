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

/** A tab's rows: column names in display order, values as text (null for none). */
export interface InboxTable {
  tab: InboxTab;
  columns: string[];
  rows: (string | null)[][];
  /** Rows in all (the table may show fewer). */
  total: number;
  /** The outbox tab: each row's delivery id, for "send again". */
  ids?: string[];
}

export interface InboxSession {
  email: string;
  expiresAt: string;
}
