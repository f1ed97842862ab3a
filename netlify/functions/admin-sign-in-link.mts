import type { Config } from '@netlify/functions';
import { ADMIN_PATHS } from '../../src/lib/admin';
import { consumeSignIn } from '../lib/admin/sign-in';
import { inboxFunction, sessionCookie } from '../lib/admin/session';
import { requireMethod } from '../lib/http';

// POST /admin/inbox/sign-in?token=… — the "Sign in" button of the page the e-mailed link opens (a static page whose
// form posts to its own address, query included), so opening the link signs nobody in. A valid, unused, unexpired
// token starts the session (its cookie) and goes to the inbox; anything else back to the page, which says why.
export default inboxFunction(async (req: Request) => {
  requireMethod(req, 'POST');
  const email = await consumeSignIn(new URL(req.url).searchParams.get('token'));
  const headers: Record<string, string> = { Location: email ? ADMIN_PATHS.inbox : `${ADMIN_PATHS.signIn}#refused` };
  if (email) headers['Set-Cookie'] = sessionCookie(req, email);
  return new Response(null, { status: 303, headers });
}, { accepts: ['form', 'none'] });

export const config: Config = { path: '/admin/inbox/sign-in', method: 'POST' };
