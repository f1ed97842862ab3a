import type { Config } from '@netlify/functions';
import { NEWSLETTER_PATHS } from '../../src/lib/newsletter';
import { unsubscribe } from '../lib/forms/newsletter';
import { isMultipart, readBytes, readMultipart, requireMethod, withErrors } from '../lib/http';

// POST /newsletter/unsubscribe?token=… — leaving the newsletter, two ways: the button of the page the unsubscribe
// link opens (then back to a page that says so), and the mail provider's one-click POST of RFC 8058, whose body is
// `List-Unsubscribe=One-Click` (form-urlencoded or multipart) and which carries no cookie and follows no redirect:
// it gets a plain 200. Open to other origins (the provider's servers), like the Stripe webhook: the signed token in
// the address is the whole authority, and it can only ever remove that one address.
const BODY_LIMIT = 4 * 1024;

/** Whether the body is RFC 8058's `List-Unsubscribe=One-Click`, in either of the two encodings it allows. */
async function isOneClick(req: Request): Promise<boolean> {
  if (isMultipart(req)) return (await readMultipart(req, BODY_LIMIT)).get('List-Unsubscribe') === 'One-Click';
  return new URLSearchParams((await readBytes(req, BODY_LIMIT)).toString('utf8')).get('List-Unsubscribe') === 'One-Click';
}

export default withErrors(async (req: Request) => {
  requireMethod(req, 'POST');
  const token = new URL(req.url).searchParams.get('token');
  const oneClick = await isOneClick(req);
  const done = await unsubscribe(token);
  if (oneClick) {
    return new Response(done ? 'Unsubscribed.' : 'This unsubscribe link is not valid.', { status: done ? 200 : 400, headers: { 'content-type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  const to = done ? NEWSLETTER_PATHS.unsubscribed : `${NEWSLETTER_PATHS.unsubscribe}#invalid`;
  return new Response(null, { status: 303, headers: { Location: to, 'Cache-Control': 'no-store' } });
}, { accepts: false });

export const config: Config = { path: '/newsletter/unsubscribe', method: 'POST' };
