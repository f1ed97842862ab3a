import { query } from '../../db';
import type { MailPurpose } from '../../mail/limits';
import { confirmationMessage } from './order-confirmation-mail';
import type { MailMessage } from '../../mail/transport';
import { getOrder } from '../../orders/order';
import type { NotifyConfig } from '../../outbox/config';
import type { ClaimedDelivery } from '../../outbox/store';
import type { WebhookBody } from '../webhook';
import { digestNotice, loadDigestDoubts } from './digest';
import {
  contactOwnerNotice, contactReceipt, leadGuideEmail, leadOwnerNotice, loadContact, loadLead, loadSubscriber,
  newsletterConfirmEmail, subscriberOwnerNotice,
} from './forms';
import { buyerEmailOf, jobFailedNotice, loadFailedJob, orderChangedNotice, orderPaidNotice } from './orders';
import { ownerEmail, ownerWebhook, type OwnerNotice } from './render';
import { loadPackageLinkOrder, packageLinkEmail } from '../../packages/lost-link';

/**
 * What one delivery sends, written from the rows its event names as they are now: an e-mail (with, for a visitor's
 * address, the purpose its daily limit counts under), a webhook body, or nothing (the row is gone, the channel is
 * not configured, there is no address). Throws when the rows cannot be read: the outbox retries.
 */
export type Composed =
  | { kind: 'email'; message: MailMessage; limit?: { purpose: MailPurpose; recipient: string }; onResult?: (result: EmailResult) => Promise<void> }
  | { kind: 'webhook'; body: WebhookBody }
  | { kind: 'skip'; reason: string };

export type EmailResult = 'sent' | 'saved' | 'failed' | 'limited';

export interface ComposeContext {
  config: NotifyConfig;
  /** The deploy's public address, for every link. */
  origin: string;
  /** The real time (links' expiry), never the worker's test clock. */
  now: Date;
}

const skip = (reason: string): Composed => ({ kind: 'skip', reason });

/** A stable Message-ID per delivery, so a mail program recognises a repeat (a worker that died after sending). */
const messageIdOf = (d: ClaimedDelivery, origin: string) => `<${d.id}@${new URL(origin).hostname || 'localhost'}>`;

export async function composeDelivery(d: ClaimedDelivery, ctx: ComposeContext): Promise<Composed> {
  const owner = (notice: OwnerNotice | null, gone: string): Composed => {
    if (!notice) return skip(gone);
    if (d.channel === 'owner-webhook') {
      return ctx.config.webhook ? { kind: 'webhook', body: ownerWebhook(notice, d.kind, d.eventCreatedAt, ctx.origin) } : skip('NOTIFY_WEBHOOK_URL is not set');
    }
    return { kind: 'email', message: { ...ownerEmail(notice, ctx.config.ownerEmails, ctx.origin, `${d.kind}-${d.eventId}`), messageId: messageIdOf(d, ctx.origin) } };
  };
  const visitor = (message: MailMessage, purpose: MailPurpose, recipient: string, onResult?: (r: EmailResult) => Promise<void>): Composed =>
    ({ kind: 'email', message: { ...message, messageId: messageIdOf(d, ctx.origin) }, limit: { purpose, recipient }, ...(onResult && { onResult }) });

  switch (d.kind) {
    case 'contact.message': {
      const m = await loadContact(d.ref);
      if (!m) return skip('the message was deleted');
      return d.channel === 'visitor-email' ? visitor(contactReceipt(m, ctx.origin, `receipt-${d.eventId}`), 'receipt', m.email) : owner(contactOwnerNotice(m), '');
    }
    case 'lead.created': {
      const l = await loadLead(d.ref);
      if (!l) return skip('the lead was deleted');
      return d.channel === 'visitor-email' ? visitor(leadGuideEmail(l, ctx.origin, `guide-${d.eventId}`), 'guide', l.email) : owner(leadOwnerNotice(l), '');
    }
    case 'newsletter.confirm': {
      const s = await loadSubscriber(d.ref);
      if (!s) return skip('the subscriber was deleted');
      if (s.status !== 'pending') return skip(`the address is already ${s.status}`);
      return visitor(newsletterConfirmEmail(s, ctx.origin, `newsletter-${d.eventId}`, ctx.now), 'newsletter', s.email);
    }
    case 'newsletter.confirmed': {
      const s = await loadSubscriber(d.ref);
      return owner(s && subscriberOwnerNotice(s), 'the subscriber was deleted');
    }
    case 'order.paid': {
      const [order, buyer] = await Promise.all([getOrder(d.ref), buyerEmailOf(d.ref)]);
      if (!order) return skip('the order was deleted');
      if (d.channel !== 'visitor-email') return owner(orderPaidNotice(order, buyer), '');
      if (!buyer) return skip('no e-mail address was given at checkout');
      // The order page reads the confirmation's fate from the payment (src/lib/checkout-status.ts).
      const onResult = async (result: EmailResult) => void (await query('update payments set email_status = $2 where id = $1', [order.paymentId, result]));
      return visitor(confirmationMessage(order, buyer, ctx.origin), 'order', buyer, onResult);
    }
    case 'order.refunded':
    case 'order.disputed':
    case 'order.item_refunded': {
      const [order, buyer] = await Promise.all([getOrder(d.ref), buyerEmailOf(d.ref)]);
      return owner(order && orderChangedNotice(d.kind, order, buyer, d.payload), 'the order was deleted');
    }
    case 'job.failed_after_payment': {
      const job = await loadFailedJob(d.ref);
      return owner(job && jobFailedNotice(job), 'the job was deleted');
    }
    case 'package.link': {
      const order = await loadPackageLinkOrder(d.ref);
      const message = order && (await packageLinkEmail(order, ctx.origin, `package-link-${d.eventId}`));
      return order && message ? visitor(message, 'package-link', order.email) : skip('the order has no package left to send');
    }
    case 'doubts.digest': {
      const doubts = await loadDigestDoubts(d.eventId);
      return owner(doubts.length ? digestNotice(d.ref, doubts) : null, 'its submissions were deleted');
    }
  }
}
