import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { newsletterSchema } from '../lib/forms/schemas';
import { subscribeToNewsletter } from '../lib/forms/store';
import { submitForm } from '../lib/forms/submit';

// POST /api/newsletter — sign-up; an address already on the list is a friendly success, not an error.
export default (req: Request, context?: Context) =>
  submitForm(req, context, {
    name: 'newsletter',
    schema: newsletterSchema,
    fallbackPath: '/',
    save: async (input) =>
      (await subscribeToNewsletter(input)) === 'created' ? MSG.newsletterSubscribed : MSG.newsletterAlreadySubscribed,
  });

export const config: Config = { path: '/api/newsletter' };
