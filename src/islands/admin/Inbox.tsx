import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  ADMIN_PATHS, INBOX_TABS, INBOX_TAB_LABELS, askForSignInLink, loadInboxSession, loadInboxTable, retryDelivery, signOutOfInbox,
  type InboxSession, type InboxTab, type InboxTable,
} from '../../lib/admin';
import { MSG } from '../../lib/messages';

/**
 * The team's inbox (/admin/inbox): orders, messages, leads, subscribers, doubtful submissions and the outbox's
 * deliveries, each a table with its CSV download, from the JSON functions under /api/admin/*. Without a session it
 * shows the sign-in form (a one-time link by e-mail to an address in OPERATOR_EMAILS). The tab is in the address's
 * #fragment, so the owner's notices link straight to it.
 */
type State = { kind: 'loading' } | { kind: 'signed-out'; note?: string } | { kind: 'signed-in'; session: InboxSession };

const tabFromHash = (): InboxTab => {
  const hash = typeof location === 'undefined' ? '' : location.hash.slice(1);
  return (INBOX_TABS as readonly string[]).includes(hash) ? (hash as InboxTab) : 'orders';
};

export default function Inbox() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [tab, setTab] = useState<InboxTab>('orders');
  const [table, setTable] = useState<InboxTable | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');

  const signedOut = useCallback((text?: string) => {
    setTable(null);
    setState({ kind: 'signed-out', note: text });
  }, []);

  useEffect(() => {
    setTab(tabFromHash());
    const onHash = () => setTab(tabFromHash());
    window.addEventListener('hashchange', onHash);
    loadInboxSession()
      .then((session) => (session ? setState({ kind: 'signed-in', session }) : signedOut()))
      .catch((e: Error) => signedOut(e.message));
    return () => window.removeEventListener('hashchange', onHash);
  }, [signedOut]);

  const load = useCallback(async (which: InboxTab) => {
    setError('');
    try {
      const rows = await loadInboxTable(which);
      if (!rows) return signedOut(MSG.signInRequired);
      setTable(rows);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [signedOut]);

  useEffect(() => {
    if (state.kind === 'signed-in') void load(tab);
  }, [state.kind, tab, load]);

  async function retry(id: string) {
    setNote('');
    try {
      setNote(await retryDelivery(id));
      await load('outbox');
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function signOut() {
    await signOutOfInbox();
    signedOut(MSG.signedOut);
  }

  if (state.kind === 'loading') return <p className="text-muted" role="status">Loading…</p>;
  if (state.kind === 'signed-out') return <SignInForm note={state.note} />;

  return (
    <div className="space-y-6" data-inbox>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted">Signed in as <strong data-inbox-user>{state.session.email}</strong></p>
        <div className="flex gap-2">
          <button type="button" className="btn-secondary" onClick={() => void load(tab)}>Refresh</button>
          <button type="button" className="btn-secondary" onClick={() => void signOut()}>Sign out</button>
        </div>
      </div>
      <nav aria-label="Inbox sections">
        <ul className="flex flex-wrap gap-2">
          {INBOX_TABS.map((t) => (
            <li key={t}>
              <a href={`#${t}`} className={t === tab ? 'btn-primary' : 'btn-secondary'} aria-current={t === tab ? 'page' : undefined}>{INBOX_TAB_LABELS[t]}</a>
            </li>
          ))}
        </ul>
      </nav>
      {error && <p className="text-danger" role="alert">{error}</p>}
      {note && <p className="text-success" role="status">{note}</p>}
      {table && table.tab === tab && <Table table={table} onRetry={retry} />}
    </div>
  );
}

function Table({ table, onRetry }: { table: InboxTable; onRetry: (id: string) => void }) {
  const csvLabel = table.tab === 'subscribers' ? 'Download the confirmed list (CSV, for your mailing tool)' : `Download all ${INBOX_TAB_LABELS[table.tab].toLowerCase()} (CSV)`;
  const status = table.columns.indexOf('Status');
  return (
    <section aria-labelledby="inbox-table-title" className="space-y-3" data-inbox-tab={table.tab}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="inbox-table-title" className="text-xl font-bold">{INBOX_TAB_LABELS[table.tab]} <span className="text-base font-normal text-muted">({table.total}{table.total > table.rows.length ? `, the newest ${table.rows.length} shown` : ''})</span></h2>
        <a className="link" href={ADMIN_PATHS.api.records(table.tab, 'csv')} download>{csvLabel}</a>
      </div>
      {table.rows.length === 0 ? (
        <p className="text-muted">Nothing here yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border" role="region" aria-labelledby="inbox-table-title" tabIndex={0}>
          <table className="w-full text-left text-sm">
            <thead className="bg-surface-2">
              <tr>
                {table.columns.map((c) => <th key={c} scope="col" className="px-3 py-2 font-semibold">{c}</th>)}
                {table.tab === 'outbox' && <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={table.ids?.[i] ?? i} className="border-t border-border align-top">
                  {row.map((cell, j) => <td key={j} className="max-w-md whitespace-pre-wrap break-words px-3 py-2">{cell ?? '—'}</td>)}
                  {table.tab === 'outbox' && (
                    <td className="px-3 py-2">
                      {(row[status] === 'dead' || (row[status] === 'pending' && row[table.columns.indexOf('Last error')])) && (
                        <button type="button" className="btn-secondary px-2 py-1 text-xs" onClick={() => onRetry(table.ids![i]!)}>Send again</button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SignInForm({ note }: { note?: string }) {
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = new FormData(event.currentTarget).get('email');
    setSending(true);
    setError('');
    setMessage('');
    try {
      setMessage(await askForSignInLink(String(email ?? '')));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={submit} className="card max-w-xl space-y-4" data-inbox-sign-in>
      <h2 className="text-xl font-bold">Sign in</h2>
      <p className="text-muted">For the team only. Enter your address: if it is on the team, a sign-in link arrives by e-mail.</p>
      {note && <p role="status">{note}</p>}
      <div>
        <label htmlFor="inbox-email" className="label">Email</label>
        <input id="inbox-email" name="email" type="email" required autoComplete="email" className="field" />
      </div>
      <button type="submit" className="btn-primary" disabled={sending}>{sending ? 'Sending…' : 'Send me a sign-in link'}</button>
      {message && <p className="text-success" role="status" data-inbox-sign-in-sent>{message}</p>}
      {error && <p className="text-danger" role="alert">{error}</p>}
    </form>
  );
}
