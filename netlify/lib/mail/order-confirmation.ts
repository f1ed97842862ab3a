import { createHash } from 'node:crypto';
import { formatPrice } from '../../../src/lib/catalog';
import { site } from '../../../src/lib/site';
import { MSG } from '../../../src/lib/messages';
import { query } from '../db';
import { getOrder, type Order } from '../orders/order';
import { deployOrigin } from '../running-deploy';
import { deliver, type MailMessage, type MailTarget } from './transport';
import { databaseRateLimiter, firstRefusal, type RateLimiter } from '../rate-limit';

const DAY = 86_400;

/**
 * Daily limits on outgoing mail, so the checkout cannot be used to send the site's mail to strangers: a few
 * confirmations per recipient (a buyer orders a few times a day at most), a share of the day per recipient
 * domain (MAIL_LIMITS.perDomain), and a site-wide number
 * (MAIL_DAILY_LIMIT) that keeps a flood from many clients from burning the mail provider's quota or
 * reputation. Past either, the order stands and its page says no e-mail was sent (`limited`).
 */
export const MAIL_LIMITS = {
  perRecipient: { max: 3, windowSeconds: DAY },
  /**
   * One recipient domain's share of the day: fresh addresses at one domain (a catch-all, a throwaway domain)
   * cannot spend the whole site's mail, so buyers elsewhere still get theirs. A quarter of the day, at least 20.
   */
  perDomain: { share: 0.25, min: 20, windowSeconds: DAY },
  site: { max: 200, windowSeconds: DAY },
} as const;

const siteMailLimit = () => Number(process.env.MAIL_DAILY_LIMIT) > 0 ? Number(process.env.MAIL_DAILY_LIMIT) : MAIL_LIMITS.site.max;
export const domainMailLimit = () => Math.max(MAIL_LIMITS.perDomain.min, Math.ceil(siteMailLimit() * MAIL_LIMITS.perDomain.share));

const hashed = (text: string) => createHash('sha256').update(text.trim().toLowerCase()).digest('hex').slice(0, 32);
/** The recipient's and its domain's buckets: hashes, so the rate-limit table never holds an address. */
const recipientKey = (email: string) => `mail:to:${hashed(email)}`;
const domainKey = (email: string) => `mail:domain:${hashed(email.slice(email.lastIndexOf('@') + 1))}`;

/** Counts one message to `email` against the limits; false when one of them is spent. */
async function withinMailLimits(email: string, limiter: RateLimiter): Promise<boolean> {
  const refused = await firstRefusal(limiter, [
    { key: recipientKey(email), ...MAIL_LIMITS.perRecipient },
    { key: domainKey(email), max: domainMailLimit(), windowSeconds: MAIL_LIMITS.perDomain.windowSeconds },
    { key: 'mail:site', max: siteMailLimit(), windowSeconds: MAIL_LIMITS.site.windowSeconds },
  ]);
  return refused === null;
}

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

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Claims the payment's confirmation (one sender wins, so a retried checkout or a redelivered webhook never
 * mails twice), checks the daily mail limits, sends it and records the outcome. Never throws: a mail
 * problem is logged and the payment stands; the buyer still has the success page's links.
 */
export async function sendOrderConfirmation(paymentId: string, target?: MailTarget, limiter: RateLimiter = databaseRateLimiter): Promise<void> {
  try {
    const [claim] = await query<{ email: string }>(
      `update payments set email_status = 'sending'
        where id = $1 and status = 'completed' and email is not null and email_status is null returning email`,
      [paymentId],
    );
    if (!claim) return;
    if (!(await withinMailLimits(claim.email, limiter))) {
      console.warn(`[mail] order ${paymentId}: confirmation not sent, a daily mail limit is reached`);
      await query(`update payments set email_status = 'limited' where id = $1`, [paymentId]);
      return;
    }
    const order = await getOrder(paymentId);
    let status: 'sent' | 'saved' | 'failed' = 'failed';
    try {
      const delivery = await deliver(confirmationMessage(order!, claim.email, deployOrigin() ?? new URL(site.url).origin), target);
      status = delivery.status;
      if (delivery.status === 'saved') console.log(`[mail] order ${paymentId}: no SMTP_URL/MAIL_FROM, confirmation saved to ${delivery.file}`);
      else console.log(`[mail] order ${paymentId}: confirmation sent (${delivery.messageId})`);
    } catch (error) {
      console.error(`[mail] order ${paymentId}: the confirmation could not be sent: ${(error as Error).message}`);
    }
    await query(`update payments set email_status = $2 where id = $1`, [paymentId, status]);
  } catch (error) {
    console.error(`[mail] order ${paymentId}: confirmation skipped: ${(error as Error).message}`);
  }
}
