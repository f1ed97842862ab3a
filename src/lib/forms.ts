import { z } from './zod';
import { emailSchema } from './email-schema';
import { GUIDE_SLUG } from './guides';
import { MSG } from './messages';
import { messageAnswerSchema, requestJson, type MessageAnswer } from './api-answer';

/**
 * The forms' contract (POST /api/contact, /api/newsletter, /api/leads): the functions parse a JSON body or a plain
 * HTML form post with these (netlify/lib/forms/submit.ts) and answer JSON with `{ success: true, message }`
 * (./api-answer.ts `messageAnswerSchema`), which the lead form's island reads with that schema. A form post without
 * JavaScript is redirected instead (`?sent=1` or `?error=…`).
 */

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

/** The hidden field real visitors leave empty; see netlify/lib/forms/submit.ts. */
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

/** A checkbox: a plain form sends 'on' when ticked and nothing otherwise; an island sends true or false. */
const checkbox = z.union([z.boolean(), z.enum(['on', 'true', '1', 'false', '0', ''])]).optional().transform((v) => v === true || v === 'on' || v === 'true' || v === '1');

export const leadSchema = z.object({
  name,
  email,
  phone: optionalText(50),
  interest: optionalText(200),
  source: optionalText(200),
  /** The guide the form offers (a file name in src/content/guides); the default guide when absent. */
  guide: optionalText(100).pipe(z.string().regex(GUIDE_SLUG, 'Unknown guide').optional()),
  /** The form's newsletter box: ticked, the address also gets the newsletter's confirmation e-mail. */
  newsletter: checkbox,
});

export type ContactInput = z.infer<typeof contactSchema>;
export type NewsletterInput = z.infer<typeof newsletterSchema>;
export type LeadInput = z.infer<typeof leadSchema>;

/** What the lead form's island sends: the fields as typed (the server trims and checks them), and the honeypot. */
export type LeadRequest = z.input<typeof leadSchema> & { [HONEYPOT_FIELD]: string };

/** The forms' JSON answer on success. */
export const formAnswerSchema = messageAnswerSchema;
export type FormAnswer = MessageAnswer;

/** Sends the lead form; resolves the server's confirmation, or throws an ApiError with its words (MSG.serverError without). */
export async function sendLead(body: LeadRequest, fetchImpl: typeof fetch = fetch): Promise<string> {
  const { message } = await requestJson(formAnswerSchema, 'POST', '/api/leads', { body, fallback: MSG.serverError, fetchImpl });
  return message || MSG.leadConfirmation;
}
