import { formatPrice } from '../../../../src/lib/catalog';
import { site } from '../../../../src/lib/site';
import { MSG } from '../../../../src/lib/messages';
import type { Order } from '../../orders/order';
import { PACKAGE_LINK_CARE, packageNote } from '../../packages/notes';
import { escapeHtml as escape } from '../../mail/compose';
import type { MailMessage } from '../../mail/transport';

/**
 * The order confirmation: order number, items, total, the order's clean download links and each package's link as
 * absolute addresses on the site's public origin. Sent once per paid order that has an address: the demo checkout
 * right after payment, Stripe when its verified webhook completes the payment.
 */
export function confirmationMessage(order: Order, to: string, origin: string): MailMessage {
  const links = order.downloads.map((d) => ({ ...d, href: new URL(d.url, origin).href }));
  const linkFor = (id?: string) => links.find((l) => l.transformationId === id);
  // Each package line is matched to its allowance in order (an order lists a package once).
  const packages = order.allowances.map((a) => ({ ...a, href: new URL(a.link, origin).href }));
  const lines = order.items.map((item) => {
    const link = linkFor(item.transformationId);
    const pkg = item.packageId ? packages.find((a) => a.packageId === item.packageId) : undefined;
    const note = item.duplicate === 'refunded' ? MSG.itemDuplicateRefunded : item.duplicate ? MSG.itemDuplicatePending : pkg ? packageNote(pkg) : '';
    return { label: `${item.name} — ${formatPrice(item.price)}`, link, note, packageLink: pkg?.href };
  });
  const total = `${formatPrice(order.amount)}${order.paymentMethod === 'demo' ? ' (demonstration, nothing charged)' : ''}`;
  const contact = new URL('/contact', origin).href;
  const text = [
    `Thank you for your order at ${site.brand}.`,
    '',
    `Order number: ${order.paymentId}`,
    '',
    ...lines.flatMap(({ label, link, note, packageLink }) => [label, link ? `  Download: ${link.href}` : `  ${note}`, ...(packageLink ? [`  Your package link: ${packageLink}`] : [])]),
    '',
    `Total: ${total}`,
    '',
    'The download links are yours to keep; they give the full-quality files without a watermark.',
    ...(packages.length ? [PACKAGE_LINK_CARE] : []),
    `Questions? Write to us at ${contact}`,
    '',
    `${site.brand} — ${origin}`,
  ].join('\n');
  const html = `<p>Thank you for your order at ${escape(site.brand)}.</p>
<p>Order number: <strong>${escape(order.paymentId)}</strong></p>
<ul>${lines
    .map(({ label, link, note, packageLink }) => `<li>${escape(label)}<br>${link ? `<a href="${escape(link.href)}">Download ${escape(link.filename)}</a>` : escape(note)}${packageLink ? `<br><a href="${escape(packageLink)}">Open your package in the tool</a>` : ''}</li>`)
    .join('')}</ul>
<p>Total: <strong>${escape(total)}</strong></p>
<p>The download links are yours to keep; they give the full-quality files without a watermark.</p>${packages.length ? `\n<p>${escape(PACKAGE_LINK_CARE)}</p>` : ''}
<p>Questions? <a href="${escape(contact)}">Write to us</a>.</p>`;
  return { to, subject: `Your ${site.brand} order ${order.paymentId.slice(0, 8)}`, text, html, reference: order.paymentId };
}
