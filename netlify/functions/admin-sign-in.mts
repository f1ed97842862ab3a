import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { signInRequestSchema } from '../../src/lib/admin';
import type { MessageAnswer } from '../../src/lib/api-answer';
import { limitSignInRequests, sendSignInLink } from '../lib/admin/sign-in';
import { inboxFunction } from '../lib/admin/session';
import { clientId } from '../lib/client-identity';
import { json, parseWith, readJson, requireMethod } from '../lib/http';

// POST /api/admin/sign-in {email} — asks for a one-time sign-in link to the team's inbox. The same answer for every
// address, and the mail's work happens after it (context.waitUntil), so neither the answer nor its timing tells
// who is on the team (OPERATOR_EMAILS). Limited per client (429, whatever the address).

export default inboxFunction(async (req: Request, context?: Context) => {
  requireMethod(req, 'POST');
  const { email } = parseWith(signInRequestSchema, await readJson(req));
  await limitSignInRequests(clientId(context));
  const work = sendSignInLink(email);
  if (typeof context?.waitUntil === 'function') context.waitUntil(work);
  else await work;
  const answer: MessageAnswer = { success: true, message: MSG.signInLinkSent };
  return json(answer);
});

export const config: Config = { path: '/api/admin/sign-in' };
