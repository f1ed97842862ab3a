import type { Config } from '@netlify/functions';
import type { InboxSessionAnswer } from '../../src/lib/admin';
import type { DoneAnswer } from '../../src/lib/api-answer';
import { clearedSessionCookie, inboxFunction, requireSession } from '../lib/admin/session';
import { json, requireMethod } from '../lib/http';

// GET /api/admin/session — who is signed in (401 without a session); DELETE signs out (clears the cookie).
export default inboxFunction(async (req: Request) => {
  requireMethod(req, 'GET', 'DELETE');
  const session = requireSession(req);
  const signedOut: DoneAnswer = { success: true };
  if (req.method === 'DELETE') return json(signedOut, 200, { 'Set-Cookie': clearedSessionCookie(req) });
  const answer: InboxSessionAnswer = { success: true, email: session.email, expiresAt: session.expiresAt.toISOString() };
  return json(answer);
}, { accepts: ['none'] });

export const config: Config = { path: '/api/admin/session' };
