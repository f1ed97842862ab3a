import { formatPrice } from '../../../src/lib/catalog';
import { site } from '../../../src/lib/site';
import { MSG } from '../../../src/lib/messages';
import type { Order } from '../orders/order';
import { escapeHtml as escape } from './compose';
import type { MailMessage } from './transport';

export { MAIL_LIMITS, domainMailLimit } from './limits';

/**
 * The order confirmation: order number, items, total and the order's clean download links as absolute
 * addresses on the site's public origin. Sent once per paid order that has an address: the demo checkout
 * right after payment, Stripe when its verified webhook completes the payment.
 */
export function confirmationMessage(order: Order, to: string, origin: string): MailMessage {
  const links = order.downloads.map((d) => ({ ...d, href: new URL(d.url, origin).href }));
  const linkFor = (id?: string) => links.find((l) => l.transformationId === id);
  const lines = order.items.map((item) => {
    const link = linkFor(item.transformationId);
    const note = item.duplicate === 'refunded' ? MSG.itemDuplicateRefunded : item.duplicate ? MSG.itemDuplicatePending : 'Our team will e-mail your finished files.';
    return { label: `${item.name} — ${formatPrice(item.price)}`, link, note };
  });
  const total = `${formatPrice(order.amount)}${order.paymentMethod === 'demo' ? ' (demonstration, nothing charged)' : ''}`;
  const contact = new URL('/contact', origin).href;
  const text = [
    `Thank you for your order at ${site.brand}.`,
    '',
    `Order number: ${order.paymentId}`,
    '',
    ...lines.flatMap(({ label, link, note }) => [label, link ? `  Download: ${link.href}` : `  ${note}`]),
    '',
    `Total: ${total}`,
    '',
    'The download links are yours to keep; they give the full-quality files without a watermark.',
    `Questions? Write to us at ${contact}`,
    '',
    `${site.brand} — ${origin}`,
  ].join('\n');
  const html = `<p>Thank you for your order at ${escape(site.brand)}.</p>
<p>Order number: <strong>${escape(order.paymentId)}</strong></p>
<ul>${lines
    .map(({ label, link, note }) => `<li>${escape(label)}<br>${link ? `<a href="${escape(link.href)}">Download ${escape(link.filename)}</a>` : escape(note)}</li>`)
    .join('')}</ul>
<p>Total: <strong>${escape(total)}</strong></p>
<p>The download links are yours to keep; they give the full-quality files without a watermark.</p>
<p>Questions? <a href="${escape(contact)}">Write to us</a>.</p>`;
  return { to, subject: `Your ${site.brand} order ${order.paymentId.slice(0, 8)}`, text, html, reference: order.paymentId };
}
