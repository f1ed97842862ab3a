// The forms' schemas are the shared contract the islands read too: src/lib/forms.ts.
export {
  HONEYPOT_FIELD,
  contactSchema,
  newsletterSchema,
  leadSchema,
  type ContactInput,
  type NewsletterInput,
  type LeadInput,
} from '../../../src/lib/forms';
