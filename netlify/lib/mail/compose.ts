import { site } from '../../../src/lib/site';
import type { MailMessage } from './transport';

/**
 * A short e-mail to a person (a visitor's receipt, guide or confirmation, a team member's sign-in link): blocks of
 * paragraphs, links and a quoted copy, then the brand's signature; plain text plus the same as simple HTML, every
 * value escaped.
 */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const htmlLines = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

type Field = [label: string, value: string | null | undefined];
const filled = (fields: Field[]) => fields.filter((f): f is [string, string] => !!f[1]);

export type VisitorBlock = string | { link: string; label: string } | { quote: Field[] };

export function visitorEmail(to: string, subject: string, blocks: VisitorBlock[], origin: string, reference: string, extra: Partial<MailMessage> = {}): MailMessage {
  const signature = `${site.brand} — ${origin}`;
  const textOf = (b: VisitorBlock) =>
    typeof b === 'string' ? b : 'link' in b ? `${b.label}: ${b.link}` : filled(b.quote).map(([l, v]) => `> ${l}: ${v.replace(/\n/g, '\n>   ')}`).join('\n');
  const htmlOf = (b: VisitorBlock) =>
    typeof b === 'string'
      ? `<p>${htmlLines(b)}</p>`
      : 'link' in b
        ? `<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.label)}</a></p>`
        : `<blockquote>${filled(b.quote).map(([l, v]) => `<p><strong>${escapeHtml(l)}:</strong> ${htmlLines(v)}</p>`).join('')}</blockquote>`;
  return {
    to,
    subject,
    text: [...blocks.map(textOf), signature].join('\n\n'),
    html: [...blocks.map(htmlOf), `<p>${escapeHtml(signature)}</p>`].join('\n'),
    reference,
    ...extra,
  };
}
