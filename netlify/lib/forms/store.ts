import { query } from '../db';
import type { ContactInput, LeadInput, NewsletterInput } from './schemas';

export async function saveContactMessage(input: ContactInput): Promise<void> {
  await query(
    `insert into contact_messages (name, email, phone, subject, message, source) values ($1, $2, $3, $4, $5, $6)`,
    [input.name, input.email, input.phone ?? null, input.subject ?? null, input.message, input.source ?? null],
  );
}

/** 'exists' when the address (any capitalisation) was already subscribed: nothing changes. */
export async function subscribeToNewsletter(input: NewsletterInput): Promise<'created' | 'exists'> {
  const rows = await query(
    `insert into newsletter_subscribers (email, name, source) values ($1, $2, $3)
     on conflict ((lower(email))) do nothing returning id`,
    [input.email, input.name ?? null, input.source ?? null],
  );
  return rows.length ? 'created' : 'exists';
}

export async function saveLead(input: LeadInput): Promise<void> {
  await query(`insert into leads (name, email, phone, interest, source) values ($1, $2, $3, $4, $5)`, [
    input.name,
    input.email,
    input.phone ?? null,
    input.interest ?? null,
    input.source ?? null,
  ]);
}
