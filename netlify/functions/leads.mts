import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { leadSchema } from '../lib/forms/schemas';
import { saveLead } from '../lib/forms/store';
import { submitForm } from '../lib/forms/submit';
import { withErrors } from '../lib/http';

// POST /api/leads — the lead form of the landing pages (name and e-mail for the free guide).
export default withErrors((req: Request, context?: Context) =>
  submitForm(req, context, {
    name: 'leads',
    schema: leadSchema,
    fallbackPath: '/',
    save: async (input) => {
      await saveLead(input);
      return MSG.leadConfirmation;
    },
  }),
  // A plain HTML form posts from the page without JavaScript: no JSON, no guard (see submitForm).
  { accepts: false },
);

export const config: Config = { path: '/api/leads' };
