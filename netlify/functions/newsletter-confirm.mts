import type { Config, Context } from '@netlify/functions';
import { NEWSLETTER_PATHS } from '../../src/lib/newsletter';
import { clientId } from '../lib/client-identity';
import { confirmSubscription } from '../lib/forms/newsletter';
import { requireMethod, withErrors } from '../lib/http';
import { deliverSoon } from '../lib/delivery/worker';

// POST /newsletter/confirm?token=… — the Confirm button of the page the confirmation e-mail links to (the page is
// static: its form posts to its own address, query included). Only this POST confirms, so a mail scanner that
// opens the link confirms nothing. A plain form from the site's own page: same-origin only.
export default withErrors(async (req: Request, context?: Context) => {
  requireMethod(req, 'POST');
  const token = new URL(req.url).searchParams.get('token');
  const { outcome, eventId } = await confirmSubscription(token, clientId(context));
  if (eventId) deliverSoon(context, [eventId]);
  const to = outcome === 'confirmed' || outcome === 'already' ? NEWSLETTER_PATHS.confirmed : `${NEWSLETTER_PATHS.confirm}#${outcome}`;
  return new Response(null, { status: 303, headers: { Location: to, 'Cache-Control': 'no-store' } });
}, { accepts: ['form', 'none'] });

export const config: Config = { path: '/newsletter/confirm', method: 'POST' };
