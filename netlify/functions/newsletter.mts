import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { newsletterSchema } from '../../src/lib/forms';
import { subscribeToNewsletter } from '../lib/forms/store';
import { submitForm } from '../lib/forms/submit';
import { withErrors } from '../lib/http';

// POST /api/newsletter — sign-up with double opt-in: the address gets a confirmation e-mail and is on the list only
// once its link's page is confirmed. The answer is the same whether or not the address was already on the list,
// so the form cannot be used to learn who subscribed.
export default withErrors((req: Request, context?: Context) =>
  submitForm(req, context, {
    name: 'newsletter',
    schema: newsletterSchema,
    fallbackPath: '/',
    message: MSG.newsletterCheckInbox,
    save: (input, { client }) => subscribeToNewsletter(input, client),
  }),
  // A plain HTML form posts from the page without JavaScript: no JSON, no guard (see submitForm).
  { accepts: false },
);

export const config: Config = { path: '/api/newsletter' };
