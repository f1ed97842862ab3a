import type { Config, Context } from '@netlify/functions';
import { INBOX_TABS, type InboxTab, type InboxTableAnswer } from '../../src/lib/admin';
import { inboxCsv, inboxTable } from '../lib/admin/records';
import { inboxFunction, requireSession } from '../lib/admin/session';
import { HttpError, json, requireMethod } from '../lib/http';

// GET /api/admin/records/{tab}[?format=csv] — a tab of the team's inbox (orders, messages, leads, subscribers,
// doubtful, outbox) as JSON, or all of it as a CSV download. 401 without the session.
export default inboxFunction(async (req: Request, context?: Context) => {
  requireMethod(req, 'GET');
  requireSession(req);
  const tab = context?.params?.tab ?? new URL(req.url).pathname.split('/').pop();
  if (!INBOX_TABS.includes(tab as InboxTab)) throw new HttpError(404, 'No such inbox tab');
  if (new URL(req.url).searchParams.get('format') === 'csv') {
    const { filename, body } = await inboxCsv(tab as InboxTab);
    return new Response(body, {
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` },
    });
  }
  const answer: InboxTableAnswer = { success: true, ...(await inboxTable(tab as InboxTab)) };
  return json(answer);
});

export const config: Config = { path: '/api/admin/records/:tab' };
