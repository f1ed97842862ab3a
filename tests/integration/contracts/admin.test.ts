import { describe, expect, it } from 'vitest';
import records from '../../../netlify/functions/admin-records.mts';
import retry from '../../../netlify/functions/admin-outbox-retry.mts';
import session from '../../../netlify/functions/admin-session.mts';
import signIn from '../../../netlify/functions/admin-sign-in.mts';
import signInLink from '../../../netlify/functions/admin-sign-in-link.mts';
import { query } from '../../../netlify/lib/db';
import { ADMIN_PATHS, INBOX_TABS, askForSignInLink, loadInboxSession, loadInboxTable, retryDelivery, signOutOfInbox } from '../../../src/lib/admin';
import { MSG } from '../../../src/lib/messages';
import { client, parse, sendContact, useOutboxPlatform } from '../outbox/helpers';

// The team's inbox's contract (src/lib/admin.ts): its island's calls run against the real functions (a fetch that
// hands each request to its function, with the session cookie as the browser keeps it), so every answer is read with
// the schema the island reads it with.
const TEAM = 'team@lumora.test';
const ORIGIN = 'https://shop.lumora.test';
const platform = useOutboxPlatform({ OPERATOR_EMAILS: TEAM });

const routes: Record<string, (req: Request, ctx: never) => Promise<Response>> = {
  [ADMIN_PATHS.api.signIn]: signIn as never,
  [ADMIN_PATHS.api.session]: session as never,
  [ADMIN_PATHS.api.retry]: retry as never,
};

/** The browser: same-origin requests, the cookie jar of one session. */
function browser() {
  let cookie = '';
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, ORIGIN).pathname;
    const handler = path.startsWith('/api/admin/records/') ? (records as never as (req: Request, ctx: unknown) => Promise<Response>) : routes[path];
    const headers = new Headers(init.headers);
    headers.set('sec-fetch-site', 'same-origin');
    if (cookie) headers.set('cookie', cookie);
    const res = await handler!(new Request(new URL(url, ORIGIN), { ...init, headers }), { ...client(), params: { tab: path.split('/').pop() } } as never);
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    return res;
  }) as typeof fetch;
  return {
    fetchImpl,
    async signIn(link: string) {
      const res = await signInLink(new Request(`${ORIGIN}${new URL(link).pathname}${new URL(link).search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: '' }), {} as never);
      cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    },
  };
}

describe('the inbox’s answers match the schemas its island reads them with', () => {
  it('signed out, a sign-in link asked for, every tab read, a delivery sent again, signed out again', async () => {
    const { fetchImpl, signIn: pressSignIn } = browser();
    await expect(loadInboxSession(fetchImpl)).resolves.toBeNull();
    await expect(loadInboxTable('orders', fetchImpl)).resolves.toBeNull();

    await expect(askForSignInLink(TEAM, fetchImpl)).resolves.toBe(MSG.signInLinkSent);
    const mail = await parse(platform.sink().messages.filter((m) => m.to.includes(TEAM)).at(-1)!);
    await pressSignIn(/https?:\/\/\S+\/admin\/inbox\/sign-in\?token=\S+/.exec(mail.text!)![0]);
    await expect(loadInboxSession(fetchImpl)).resolves.toMatchObject({ email: TEAM, expiresAt: expect.any(String) });

    expect((await sendContact({ name: 'Ada', email: 'ada@example.com', message: 'Please call me back about a photo.' })).status).toBe(200);
    for (const tab of INBOX_TABS) {
      const table = await loadInboxTable(tab, fetchImpl);
      expect(table).toMatchObject({ tab, columns: expect.any(Array), total: expect.any(Number) });
      if (tab === 'messages') expect(table!.rows.length).toBeGreaterThan(0);
    }

    const [delivery] = await query<{ id: string }>(`select id from outbox_deliveries order by created_at limit 1`);
    await query(`update outbox_deliveries set status = 'dead' where id = $1`, [delivery!.id]);
    await expect(retryDelivery(delivery!.id, fetchImpl)).resolves.toBe(MSG.outboxRetried);
    // Not waiting any more: the refusal's words, as an ApiError.
    await query(`update outbox_deliveries set status = 'sent' where id = $1`, [delivery!.id]);
    await expect(retryDelivery(delivery!.id, fetchImpl)).rejects.toMatchObject({ name: 'ApiError', status: 409 });

    await signOutOfInbox(fetchImpl);
    await expect(loadInboxSession(fetchImpl)).resolves.toBeNull();
  });
});
