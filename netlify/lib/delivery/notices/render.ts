import type { InboxTab } from '../../../../src/lib/admin';
import { escapeHtml, htmlLines } from '../../mail/compose';
import type { MailMessage } from '../../mail/transport';
import { webhookBody, type WebhookBody } from '../webhook';

/**
 * The owner's notice: one description of what happened (`OwnerNotice`), rendered as an e-mail to NOTIFY_EMAIL
 * (plain text plus the same as simple HTML, every value escaped) and as the webhook's text and data. A visitor's
 * e-mail is `visitorEmail` (netlify/lib/mail/compose.ts).
 */
export interface OwnerNotice {
  subject: string;
  /** The one line a chat shows first. */
  headline: string;
  fields: [label: string, value: string | null | undefined][];
  /** What the visitor wrote, quoted after the fields. */
  body?: { label: string; text: string };
  sections?: { heading: string; lines: string[] }[];
  /** The visitor, on a message or a lead: the owner's "Reply" answers them. */
  replyTo?: string;
  /** Where the inbox lists it. */
  tab: InboxTab;
  /** The webhook's `data`. */
  data: Record<string, unknown>;
}


export const inboxLink = (origin: string, tab: InboxTab) => new URL(`/admin/inbox#${tab}`, origin).href;

const filled = (fields: OwnerNotice['fields']) => fields.filter((f): f is [string, string] => !!f[1]);

export function ownerEmail(notice: OwnerNotice, to: string[], origin: string, reference: string): MailMessage {
  const fields = filled(notice.fields);
  const link = inboxLink(origin, notice.tab);
  const text = [
    notice.headline,
    '',
    ...fields.map(([label, value]) => `${label}: ${value}`),
    ...(notice.body ? ['', `${notice.body.label}:`, notice.body.text] : []),
    ...(notice.sections ?? []).flatMap((s) => ['', `${s.heading}:`, ...s.lines.map((l) => `  ${l}`)]),
    '',
    `In the inbox: ${link}`,
    ...(notice.replyTo ? ['Reply to this e-mail to answer them.'] : []),
  ].join('\n');
  const html = `<p><strong>${escapeHtml(notice.headline)}</strong></p>
<table>${fields.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${htmlLines(value)}</td></tr>`).join('')}</table>
${notice.body ? `<p><strong>${escapeHtml(notice.body.label)}:</strong></p><blockquote>${htmlLines(notice.body.text)}</blockquote>` : ''}
${(notice.sections ?? []).map((s) => `<p><strong>${escapeHtml(s.heading)}:</strong></p><ul>${s.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`).join('\n')}
<p><a href="${escapeHtml(link)}">Open it in the inbox</a>${notice.replyTo ? ' — or reply to this e-mail to answer them.' : ''}</p>`;
  return { to, subject: notice.subject, text, html, reference, ...(notice.replyTo && { replyTo: notice.replyTo }) };
}

/** The webhook's text: the headline, the fields on one line, the first lines of the visitor's text, the inbox link. */
export function ownerWebhook(notice: OwnerNotice, type: string, occurredAt: Date, origin: string): WebhookBody {
  const fields = filled(notice.fields).map(([label, value]) => `${label}: ${value}`).join(' · ');
  const body = notice.body ? `${notice.body.label}: ${notice.body.text.length > 600 ? `${notice.body.text.slice(0, 599)}…` : notice.body.text}` : '';
  const sections = (notice.sections ?? []).map((s) => `${s.heading}: ${s.lines.join('; ')}`).join('\n');
  const text = [notice.headline, fields, body, sections, inboxLink(origin, notice.tab)].filter(Boolean).join('\n');
  return webhookBody(type, occurredAt, text, notice.data);
}
