import { INBOX_PAGE_ROWS, type InboxTab, type InboxTable } from '../../../src/lib/admin';
import { formatPrice } from '../../../src/lib/catalog';
import { site } from '../../../src/lib/site';
import { query } from '../db';
import { unsubscribeUrl } from '../delivery/notices/forms';
import { deployOrigin } from '../running-deploy';

/**
 * What each tab of the team's inbox lists, newest first: at most INBOX_PAGE_ROWS on screen, everything (up to
 * CSV_MAX_ROWS) in its CSV. The subscribers' CSV is the confirmed list only, ready for the owner's mailing tool,
 * each row with its own unsubscribe link (the List-Unsubscribe address every newsletter mail must carry).
 */
export const CSV_MAX_ROWS = 50_000;

type Cell = string | null;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : null);
const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

interface TabQuery {
  /** The table whose rows the tab counts. */
  table: string;
  columns: string[];
  /** The SQL without limit, newest first. */
  sql: string;
  row(r: Record<string, unknown>): Cell[];
}

const TABS: Record<InboxTab, TabQuery> = {
  orders: {
    table: 'payments',
    // Images used and left: the order's package allowances summed (empty for an order without a package); nothing is
    // left of a refunded or expired one.
    columns: ['Placed', 'Order', 'Status', 'Paid by', 'Total', 'Items', 'Buyer', 'Confirmation', 'Images used', 'Images left'],
    sql: `select p.id, p.created_at, p.status, p.payment_method, p.amount, p.email, p.email_status,
                 (select sum(a.images_used) from package_allowances a where a.payment_id = p.id) as images_used,
                 (select sum(case when a.revoked_at is null and a.expires_at > now() then a.images_total - a.images_used else 0 end)
                    from package_allowances a where a.payment_id = p.id) as images_left,
                 (select string_agg(coalesce(c.name, pi.package_id, m.kind) || ' ' || pi.price::text, '; ' order by pi.position)
                    from payment_items pi
                    left join media_transformations m on m.id = pi.transformation_id
                    left join catalog_prices c on (c.item_type = 'package' and c.item_key = pi.package_id) or (c.item_type = 'transformation' and c.item_key = m.price_key)
                   where pi.payment_id = p.id) as items
            from payments p order by p.created_at desc`,
    row: (r) => [iso(r.created_at), text(r.id), text(r.status), text(r.payment_method), formatPrice(Number(r.amount)), text(r.items), text(r.email), text(r.email_status), text(r.images_used), text(r.images_left)],
  },
  messages: {
    table: 'contact_messages',
    columns: ['Received', 'Name', 'E-mail', 'Phone', 'Subject', 'Message', 'Page'],
    sql: 'select * from contact_messages order by created_at desc',
    row: (r) => [iso(r.created_at), text(r.name), text(r.email), text(r.phone), text(r.subject), text(r.message), text(r.source)],
  },
  leads: {
    table: 'leads',
    columns: ['Received', 'Name', 'E-mail', 'Phone', 'Interest', 'Page', 'Guide', 'Newsletter box'],
    sql: 'select * from leads order by created_at desc',
    row: (r) => [iso(r.created_at), text(r.name), text(r.email), text(r.phone), text(r.interest), text(r.source), text(r.guide), r.newsletter ? 'ticked' : 'not ticked'],
  },
  subscribers: {
    table: 'newsletter_subscribers',
    columns: ['Signed up', 'E-mail', 'Name', 'Status', 'Consent given', 'Consent wording', 'Consent from (hash)', 'Confirmed', 'Unsubscribed', 'Page'],
    sql: 'select * from newsletter_subscribers order by created_at desc',
    row: (r) => [iso(r.created_at), text(r.email), text(r.name), text(r.status), iso(r.consent_at), text(r.consent_text), text(r.consent_client), iso(r.confirmed_at), iso(r.unsubscribed_at), text(r.source)],
  },
  doubtful: {
    table: 'form_doubts',
    columns: ['Received', 'Form', 'Why', 'Name', 'E-mail', 'Message', 'In a digest'],
    sql: 'select * from form_doubts order by created_at desc',
    row: (r) => {
      const f = (r.fields ?? {}) as Record<string, unknown>;
      return [iso(r.created_at), text(r.form), text(r.reason), text(f.name), text(f.email), text(f.message ?? f.interest), r.digest_event_id ? 'yes' : 'not yet'];
    },
  },
  outbox: {
    table: 'outbox_deliveries',
    columns: ['Created', 'Event', 'To', 'Status', 'Attempts', 'Last error', 'Next attempt', 'Sent', 'Detail'],
    sql: `select d.id, e.created_at, e.kind, d.channel, d.status, d.attempts, d.last_error, d.next_attempt_at, d.sent_at, d.detail
            from outbox_deliveries d join outbox_events e on e.id = d.event_id
           order by e.created_at desc, d.channel`,
    row: (r) => [iso(r.created_at), text(r.kind), text(r.channel), text(r.status), String(r.attempts), text(r.last_error), r.status === 'pending' ? iso(r.next_attempt_at) : null, iso(r.sent_at), text(r.detail)],
  },
};

export async function inboxTable(tab: InboxTab, limit: number = INBOX_PAGE_ROWS): Promise<InboxTable> {
  const spec = TABS[tab];
  const [rows, [count]] = await Promise.all([
    query(`${spec.sql} limit $1`, [limit]),
    query<{ n: number }>(`select count(*)::int as n from ${spec.table}`),
  ]);
  return {
    tab,
    columns: spec.columns,
    rows: rows.map(spec.row),
    total: count!.n,
    ...(tab === 'outbox' && { ids: rows.map((r) => String(r.id)) }),
  };
}

/** The confirmed subscribers, for the owner's mailing tool. */
async function confirmedSubscribers(): Promise<{ columns: string[]; rows: Cell[][] }> {
  const origin = deployOrigin() ?? new URL(site.url).origin;
  const rows = await query(
    `select id, email, name, confirmed_at, consent_at, consent_text, source from newsletter_subscribers
      where status = 'confirmed' order by confirmed_at limit $1`,
    [CSV_MAX_ROWS],
  );
  return {
    columns: ['email', 'name', 'confirmed_at', 'consent_at', 'consent_wording', 'source', 'unsubscribe_url'],
    rows: rows.map((r) => [text(r.email), text(r.name), iso(r.confirmed_at), iso(r.consent_at), text(r.consent_text), text(r.source), unsubscribeUrl(String(r.id), origin)]),
  };
}

/**
 * RFC 4180 CSV (every field quoted, CRLF), with a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR
 * first) prefixed with an apostrophe: the cells are visitors' words, and opening the export must not run them.
 */
export function toCsv(columns: string[], rows: Cell[][]): string {
  const cell = (value: Cell) => {
    const raw = value ?? '';
    const safe = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
    return `"${safe.replace(/"/g, '""')}"`;
  };
  return [columns, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

export async function inboxCsv(tab: InboxTab): Promise<{ filename: string; body: string }> {
  const day = new Date().toISOString().slice(0, 10);
  if (tab === 'subscribers') {
    const list = await confirmedSubscribers();
    return { filename: `newsletter-confirmed-${day}.csv`, body: toCsv(list.columns, list.rows) };
  }
  const table = await inboxTable(tab, CSV_MAX_ROWS);
  return { filename: `${tab}-${day}.csv`, body: toCsv(table.columns, table.rows) };
}
