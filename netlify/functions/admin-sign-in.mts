import type { Config, Context } from '@netlify/functions';
import { z } from 'zod';
import { MSG } from '../../src/lib/messages';
import { emailSchema } from '../../src/lib/email-schema';
import { limitSignInRequests, sendSignInLink } from '../lib/admin/sign-in';
import { inboxFunction } from '../lib/admin/session';
import { clientId } from '../lib/client-identity';
import { json, parseWith, readJson, requireMethod } from '../lib/http';

// POST /api/admin/sign-in {email} — asks for a one-time sign-in link to the team's inbox. The same answer for every
// address, and the mail's work happens after it (context.waitUntil), so neither the answer nor its timing tells
// who is on the team (OPERATOR_EMAILS). Limited per client (429, whatever the address).
const schema = z.object({ email: emailSchema });

export default inboxFunction(async (req: Request, context?: Context) => {
  requireMethod(req, 'POST');
  const { email } = parseWith(schema, await readJson(req));
  await limitSignInRequests(clientId(context));
  const work = sendSignInLink(email);
  if (typeof context?.waitUntil === 'function') context.waitUntil(work);
  else await work;
  return json({ success: true, message: MSG.signInLinkSent });
});

export const config: Config = { path: '/api/admin/sign-in' };
