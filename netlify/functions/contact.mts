import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { contactSchema } from '../../src/lib/forms';
import { saveContactMessage } from '../lib/forms/store';
import { submitForm } from '../lib/forms/submit';
import { withErrors } from '../lib/http';

// POST /api/contact — the first-party contact form (JSON or a plain HTML form post). The owner is notified and
// the visitor gets a receipt through the outbox (netlify/lib/outbox).
export default withErrors((req: Request, context?: Context) =>
  submitForm(req, context, {
    name: 'contact',
    schema: contactSchema,
    fallbackPath: '/contact',
    message: MSG.contactSent,
    save: (input) => saveContactMessage(input),
  }),
  // A plain HTML form posts from the page without JavaScript: no JSON, no guard (see submitForm).
  { accepts: false },
);

export const config: Config = { path: '/api/contact' };
