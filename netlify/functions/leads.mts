import type { Config, Context } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { leadSchema } from '../../src/lib/forms';
import { saveLead } from '../lib/forms/store';
import { submitForm } from '../lib/forms/submit';
import { withErrors } from '../lib/http';

// POST /api/leads — the landing pages' lead form: its free guide is e-mailed as a link whether or not the
// newsletter box is ticked (ticked, the newsletter's own confirmation follows); the owner is notified.
export default withErrors((req: Request, context?: Context) =>
  submitForm(req, context, {
    name: 'leads',
    schema: leadSchema,
    fallbackPath: '/',
    message: MSG.leadConfirmation,
    save: (input, { client }) => saveLead(input, client),
  }),
  // A plain HTML form posts from the page without JavaScript: no JSON, no guard (see submitForm).
  { accepts: false },
);

export const config: Config = { path: '/api/leads' };
