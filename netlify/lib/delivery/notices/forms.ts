import { site } from '../../../../src/lib/site';
import { DEFAULT_GUIDE, guidePath } from '../../../../src/lib/guides';
import { CONFIRM_LINK_HOURS, NEWSLETTER_PATHS } from '../../../../src/lib/newsletter';
import { query } from '../../db';
import { confirmToken, unsubscribeToken } from '../../newsletter-tokens';
import type { MailMessage } from '../../mail/transport';
import { visitorEmail } from '../../mail/compose';
import type { OwnerNotice } from './render';

/**
 * The notices of the three forms, written from the stored row when they are sent: the owner's (reply-to the
 * visitor), and the visitor's own copy — a message's receipt with what they sent, the lead's free guide (whether
 * or not its newsletter box was ticked), and the newsletter's confirmation with its unsubscribe headers.
 */
export interface ContactRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string | null;
  message: string;
  source: string | null;
  created_at: Date;
}

export interface LeadRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  interest: string | null;
  source: string | null;
  guide: string | null;
  newsletter: boolean;
  created_at: Date;
}

export interface SubscriberRow {
  id: string;
  email: string;
  name: string | null;
  source: string | null;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  consent_text: string | null;
  consent_at: Date | null;
  confirmed_at: Date | null;
}

const one = async <T>(sql: string, id: string): Promise<T | null> => ((await query(sql, [id])) as T[])[0] ?? null;
export const loadContact = (id: string) => one<ContactRow>('select * from contact_messages where id = $1', id);
export const loadLead = (id: string) => one<LeadRow>('select * from leads where id = $1', id);
export const loadSubscriber = (id: string) =>
  one<SubscriberRow>('select id, email, name, source, status, consent_text, consent_at, confirmed_at from newsletter_subscribers where id = $1', id);

const firstWords = (text: string, max = 60) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export function contactOwnerNotice(m: ContactRow): OwnerNotice {
  return {
    subject: `New message from ${m.name}: ${m.subject ?? firstWords(m.message)}`,
    headline: `New message from ${m.name} <${m.email}>`,
    fields: [['Name', m.name], ['E-mail', m.email], ['Phone', m.phone], ['Subject', m.subject], ['Page', m.source], ['Received', m.created_at.toISOString()]],
    body: { label: 'Message', text: m.message },
    replyTo: m.email,
    tab: 'messages',
    data: { id: m.id, name: m.name, email: m.email, phone: m.phone, subject: m.subject, message: m.message, source: m.source, receivedAt: m.created_at.toISOString() },
  };
}

export function contactReceipt(m: ContactRow, origin: string, reference: string): MailMessage {
  return visitorEmail(
    m.email,
    `We received your message — ${site.brand}`,
    [
      `Hello ${m.name},`,
      `thank you for writing to ${site.brand}. Your message has reached our team, and we reply within one business day.`,
      'This is a copy of what you sent:',
      { quote: [['Name', m.name], ['E-mail', m.email], ['Phone', m.phone], ['Subject', m.subject], ['Message', m.message]] },
      `If you did not write to us, you can ignore this e-mail: someone typed your address, and nothing else will be sent. To add something, reply to this e-mail or write to ${site.email}.`,
    ],
    origin,
    reference,
    { replyTo: site.email },
  );
}

export function leadOwnerNotice(l: LeadRow): OwnerNotice {
  const guide = l.guide ?? DEFAULT_GUIDE;
  return {
    subject: `New lead: ${l.name}${l.source ? ` (${l.source})` : ''}`,
    headline: `New lead from ${l.name} <${l.email}>`,
    fields: [
      ['Name', l.name], ['E-mail', l.email], ['Phone', l.phone], ['Interest', l.interest], ['Page', l.source],
      ['Guide sent', guidePath(guide)], ['Newsletter', l.newsletter ? 'asked to subscribe (confirmation e-mail sent)' : 'not asked'],
      ['Received', l.created_at.toISOString()],
    ],
    replyTo: l.email,
    tab: 'leads',
    data: { id: l.id, name: l.name, email: l.email, phone: l.phone, interest: l.interest, source: l.source, guide, newsletter: l.newsletter, receivedAt: l.created_at.toISOString() },
  };
}

export function leadGuideEmail(l: LeadRow, origin: string, reference: string): MailMessage {
  const link = new URL(guidePath(l.guide ?? DEFAULT_GUIDE), origin).href;
  return visitorEmail(
    l.email,
    `Your free guide from ${site.brand}`,
    [
      `Hello ${l.name},`,
      'thank you for your interest. Here is the guide you asked for: it is a page on our site, so it opens on any device and stays there for you to come back to.',
      { link, label: 'Read your free guide' },
      `Questions about your own project? Reply to this e-mail or book a call: ${new URL('/contact', origin).href}`,
      'If you did not ask for this guide, you can ignore this e-mail: someone typed your address, and nothing else will be sent.',
    ],
    origin,
    reference,
    { replyTo: site.email },
  );
}

/**
 * The list headers every newsletter mail carries: List-Unsubscribe (RFC 2369) with one HTTPS address that takes the
 * mail provider's one-click POST (`List-Unsubscribe=One-Click`, RFC 8058) without cookies or a page, and List-Id
 * naming the list (RFC 2919), as Gmail's sender guidelines ask of subscription mail. The sending domain's DKIM
 * signature must cover them (docs/deploy.md).
 */
export function newsletterHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    'List-Id': `${site.brand} newsletter <newsletter.${new URL(unsubscribeUrl).hostname}>`,
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

export const unsubscribeUrl = (subscriberId: string, origin: string) =>
  `${new URL(NEWSLETTER_PATHS.unsubscribe, origin).href}?token=${encodeURIComponent(unsubscribeToken(subscriberId))}`;

/** The double opt-in's e-mail; its link works CONFIRM_LINK_HOURS from when it is sent. */
export function newsletterConfirmEmail(s: SubscriberRow, origin: string, reference: string, now: Date): MailMessage {
  const expires = new Date(now.getTime() + CONFIRM_LINK_HOURS * 3_600_000);
  const confirm = `${new URL(NEWSLETTER_PATHS.confirm, origin).href}?token=${encodeURIComponent(confirmToken(s.id, expires))}`;
  const unsubscribe = unsubscribeUrl(s.id, origin);
  return visitorEmail(
    s.email,
    `Please confirm your subscription to the ${site.brand} newsletter`,
    [
      'Hello,',
      `someone, hopefully you, asked to receive the ${site.brand} newsletter at this address. To confirm, open the link below and press "Confirm my subscription":`,
      { link: confirm, label: 'Confirm my subscription' },
      `The link works for ${CONFIRM_LINK_HOURS} hours. If you did not sign up, ignore this e-mail: you will not be subscribed and we will not write again.`,
      { link: unsubscribe, label: 'Never send newsletters to this address' },
    ],
    origin,
    reference,
    { headers: newsletterHeaders(unsubscribe) },
  );
}

export function subscriberOwnerNotice(s: SubscriberRow): OwnerNotice {
  return {
    subject: `New newsletter subscriber: ${s.email}`,
    headline: `${s.email} confirmed the newsletter subscription`,
    fields: [['E-mail', s.email], ['Name', s.name], ['Signed up on', s.source], ['Consent given', s.consent_at?.toISOString()], ['Confirmed', s.confirmed_at?.toISOString()]],
    replyTo: s.email,
    tab: 'subscribers',
    data: { id: s.id, email: s.email, name: s.name, source: s.source, consentAt: s.consent_at?.toISOString() ?? null, confirmedAt: s.confirmed_at?.toISOString() ?? null },
  };
}
