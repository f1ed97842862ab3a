import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { inboxFunction, requireSession } from '../lib/admin/session';
import { HttpError, json, parseWith, readJson, requireMethod } from '../lib/http';
import { retryNow } from '../lib/outbox/store';
import { outboxRetryRequestSchema } from '../../src/lib/admin';
import type { MessageAnswer } from '../../src/lib/api-answer';

// POST /api/admin/outbox/retry {id} — the inbox's "send again" for a failing or given-up notice: due at once, its
// retry clock restarted. 401 without the session; 409 when the delivery is sent, skipped or being sent.

export default inboxFunction(async (req: Request) => {
  requireMethod(req, 'POST');
  requireSession(req);
  const { id } = parseWith(outboxRetryRequestSchema, await readJson(req));
  if (!(await retryNow(id))) throw new HttpError(409, 'This notice is not waiting to be sent (already sent, skipped or being sent).');
  const answer: MessageAnswer = { success: true, message: MSG.outboxRetried };
  return json(answer);
});

export const config: Config = { path: '/api/admin/outbox/retry' };
