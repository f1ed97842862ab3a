import type { Config } from '@netlify/functions';
import { runOutbox } from '../lib/delivery/worker';

// Scheduled every minute (no public path; `npm start` runs it on an interval): sends the outbox's due notices —
// the owner's e-mails and webhook, visitors' receipts, guides and confirmations, buyers' order confirmations —
// retrying failed ones with backoff, and makes the day's digest of doubtful submissions. A pass claims for at most
// 20 s of Netlify's 30 s; what is left waits for the next minute. See netlify/lib/outbox/README.md.
export default async () => {
  const pass = await runOutbox();
  if (Object.values(pass).some((n) => n > 0)) console.log('[outbox]', JSON.stringify(pass));
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
