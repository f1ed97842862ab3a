import { NEWSLETTER_CONSENT } from '../../../src/lib/newsletter';
import { DEFAULT_GUIDE } from '../../../src/lib/guides';
import { withTransaction, type Queryable } from '../db';
import { emitEvent } from '../outbox/events';
import type { ContactInput, LeadInput, NewsletterInput } from '../../../src/lib/forms';

/**
 * The forms' rows, each written in one transaction with its outbox event (netlify/lib/outbox), so the owner's notice
 * and the visitor's e-mail exist exactly when the row does. Each returns the ids of the events to send now.
 */
export async function saveContactMessage(input: ContactInput): Promise<(string | null)[]> {
  return withTransaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into contact_messages (name, email, phone, subject, message, source) values ($1, $2, $3, $4, $5, $6) returning id`,
      [input.name, input.email, input.phone ?? null, input.subject ?? null, input.message, input.source ?? null],
    );
    return [await emitEvent(tx, 'contact.message', row!.id, `contact.message:${row!.id}`)];
  });
}

export async function saveLead(input: LeadInput, client: string): Promise<(string | null)[]> {
  return withTransaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into leads (name, email, phone, interest, source, guide, newsletter) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [input.name, input.email, input.phone ?? null, input.interest ?? null, input.source ?? null, input.guide ?? DEFAULT_GUIDE, input.newsletter],
    );
    const lead = await emitEvent(tx, 'lead.created', row!.id, `lead.created:${row!.id}`);
    // The guide is sent either way; the newsletter only after its own confirmation.
    const confirm = input.newsletter ? await subscribe(tx, { email: input.email, name: input.name, source: input.source }, client) : null;
    return [lead, confirm];
  });
}

/**
 * A sign-up: a new or unconfirmed address (or one that had left) is pending with this consent, and gets a
 * confirmation e-mail (one an hour at most: repeated sign-ups inside the hour send nothing more); a confirmed
 * address changes nothing. The answer is the same in every case, so the form tells nobody who is on the list.
 */
export async function subscribeToNewsletter(input: NewsletterInput, client: string): Promise<(string | null)[]> {
  return withTransaction(async (tx) => [await subscribe(tx, input, client)]);
}

async function subscribe(tx: Queryable, input: NewsletterInput, client: string): Promise<string | null> {
  const [created] = await tx.query<{ id: string }>(
    `insert into newsletter_subscribers (email, name, source, status, consent_text, consent_at, consent_client)
     values ($1, $2, $3, 'pending', $4, now(), $5)
     on conflict ((lower(email))) do nothing returning id`,
    [input.email, input.name ?? null, input.source ?? null, NEWSLETTER_CONSENT, client],
  );
  let id = created?.id;
  if (!id) {
    const [existing] = await tx.query<{ id: string; status: string }>(
      `select id, status from newsletter_subscribers where lower(email) = lower($1) for update`,
      [input.email],
    );
    if (!existing || existing.status === 'confirmed') return null;
    await tx.query(
      `update newsletter_subscribers set status = 'pending', name = coalesce($2, name), source = coalesce($3, source),
              consent_text = $4, consent_at = now(), consent_client = $5, unsubscribed_at = null
        where id = $1`,
      [existing.id, input.name ?? null, input.source ?? null, NEWSLETTER_CONSENT, client],
    );
    id = existing.id;
  }
  const hour = new Date().toISOString().slice(0, 13);
  return emitEvent(tx, 'newsletter.confirm', id, `newsletter.confirm:${id}:${hour}`);
}
