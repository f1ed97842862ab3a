import { z } from 'zod';
import { emailSchema } from '../../../src/lib/email-schema';

/** Optional text field: HTML forms send '' for an empty input, which counts as absent. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined);

const name = z.string().trim().min(1, 'Please enter your name').max(200);
const email = emailSchema;

/** The hidden field real visitors leave empty; see submit.ts. */
export const HONEYPOT_FIELD = 'company_website';

export const contactSchema = z.object({
  name,
  email,
  phone: optionalText(50),
  subject: optionalText(200),
  message: z.string().trim().min(1, 'Please enter a message').max(5000, 'Message should be less than 5000 characters'),
  source: optionalText(200),
});

export const newsletterSchema = z.object({
  email,
  name: optionalText(200),
  source: optionalText(200),
});

export const leadSchema = z.object({
  name,
  email,
  phone: optionalText(50),
  interest: optionalText(200),
  source: optionalText(200),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type NewsletterInput = z.infer<typeof newsletterSchema>;
export type LeadInput = z.infer<typeof leadSchema>;
