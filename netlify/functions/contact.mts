import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { contactSchema } from '../lib/forms/schemas';
import { saveContactMessage } from '../lib/forms/store';
import { submitForm } from '../lib/forms/submit';
import { withErrors } from '../lib/http';

// POST /api/contact — the first-party contact form (JSON or a plain HTML form post).
export default withErrors((req: Request, context?: Context) =>
  submitForm(req, context, {
    name: 'contact',
    schema: contactSchema,
    fallbackPath: '/contact',
    save: async (input) => {
      await saveContactMessage(input);
      return MSG.contactSent;
    },
  }),
  // A plain HTML form posts from the page without JavaScript: no JSON, no guard (see submitForm).
  { accepts: false },
);

export const config: Config = { path: '/api/contact' };
