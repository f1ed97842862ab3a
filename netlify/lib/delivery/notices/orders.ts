import { findImagePackage, formatPrice, PACKAGE_VALID_MONTHS, packageTermsLine } from '../../../../src/lib/catalog';
import { query } from '../../db';
import { maskEmail } from '../../mail/mask';
import type { Order, OrderItem } from '../../orders/order';
import type { OwnerNotice } from './render';

/**
 * The owner's notices about money: an order paid (its items, total and, for a package, what it gives), refunded,
 * disputed, a duplicate's share refunded, and a paid job that failed. The buyer's address appears masked, as
 * everywhere outside the inbox (netlify/lib/mail/README.md); the team sees it in full at /admin/inbox.
 */
export const buyerEmailOf = async (paymentId: string) =>
  (await query<{ email: string | null }>('select email from payments where id = $1', [paymentId]))[0]?.email ?? null;

/**
 * What a package gives, for the owner's notice: its allowance (images in all, used and left, the expiry, its state)
 * and the package's features from src/lib/catalog.ts. The buyer's link is not in it: it is the key to the images, and
 * a notice may go to a shared channel; the buyer gets it again through "Lost your link?".
 */
export function packageAllowance(item: OrderItem, order: Pick<Order, 'allowances'>): { lines: string[]; data: Record<string, unknown> } {
  const pkg = item.packageId ? findImagePackage(item.packageId) : undefined;
  if (!pkg) return { lines: [], data: {} };
  const a = order.allowances.find((x) => x.packageId === pkg.id);
  const terms = a
    ? [`${a.imagesTotal} images, until ${a.expiresAt.slice(0, 10)} (${PACKAGE_VALID_MONTHS} months)`, `Images used: ${a.imagesUsed}, left: ${a.imagesLeft}${a.state === 'active' ? '' : ` (${a.state})`}`]
    : [`${packageTermsLine(pkg)} (no allowance yet: the payment is not completed)`];
  return {
    lines: [...terms, ...pkg.features],
    data: {
      packageId: pkg.id,
      features: pkg.features,
      ...(a && { imagesTotal: a.imagesTotal, imagesUsed: a.imagesUsed, imagesLeft: a.imagesLeft, expiresAt: a.expiresAt, state: a.state }),
    },
  };
}

const paidBy = (order: Order) => (order.paymentMethod === 'demo' ? 'demonstration checkout (nothing charged)' : order.paymentMethod);
const itemLine = (item: OrderItem) => `${item.name} — ${formatPrice(item.price)}${item.duplicate ? ` (already bought in another order: ${item.duplicate})` : ''}`;

function orderData(order: Order, buyer: string | null) {
  return {
    paymentId: order.paymentId,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    paymentMethod: order.paymentMethod,
    createdAt: order.createdAt,
    buyer: buyer ? maskEmail(buyer) : null,
    items: order.items.map((item) => ({ type: item.type, name: item.name, price: item.price, ...(item.packageId && { packageId: item.packageId, allowance: packageAllowance(item, order).data }), ...(item.transformationId && { transformationId: item.transformationId }) })),
  };
}

export function orderPaidNotice(order: Order, buyer: string | null): OwnerNotice {
  const packages = order.items.filter((item) => item.type === 'package');
  const total = formatPrice(order.amount);
  return {
    subject: packages.length ? `Package bought: ${packages.map((p) => p.name).join(', ')} — ${total}` : `New order: ${total}, ${order.items.length} item${order.items.length === 1 ? '' : 's'}`,
    headline: `New order ${order.paymentId.slice(0, 8)}: ${total} paid by ${paidBy(order)}`,
    fields: [['Order', order.paymentId], ['Total', `${total} ${order.currency}`], ['Paid by', paidBy(order)], ['Buyer', buyer ? maskEmail(buyer) : 'no e-mail given'], ['Placed', order.createdAt]],
    sections: [
      { heading: 'Items', lines: order.items.map(itemLine) },
      ...packages.map((item) => ({ heading: `${item.name}: what the package gives`, lines: packageAllowance(item, order).lines })),
    ],
    tab: 'orders',
    data: orderData(order, buyer),
  };
}

const CHANGE_TEXT = {
  'order.refunded': (from: string) => (from === 'failed' ? 'a late payment for a failed order was refunded in full' : 'was refunded; its downloads are revoked'),
  'order.disputed': () => 'is disputed with the bank; its downloads are revoked until the dispute is settled',
  'order.item_refunded': () => 'paid for an item another order had already bought: that share was refunded',
} as const;

export function orderChangedNotice(kind: keyof typeof CHANGE_TEXT, order: Order, buyer: string | null, payload: Record<string, unknown>): OwnerNotice {
  const what = CHANGE_TEXT[kind](String(payload.from ?? ''));
  return {
    subject: `Order ${order.paymentId.slice(0, 8)} ${kind === 'order.disputed' ? 'disputed' : 'refund'}: ${formatPrice(order.amount)}`,
    headline: `Order ${order.paymentId.slice(0, 8)} ${what}`,
    fields: [['Order', order.paymentId], ['Total', `${formatPrice(order.amount)} ${order.currency}`], ['Status', order.status], ['Refund', typeof payload.refundId === 'string' ? payload.refundId : null], ['Buyer', buyer ? maskEmail(buyer) : null]],
    sections: [{ heading: 'Items', lines: order.items.map(itemLine) }],
    tab: 'orders',
    data: { ...orderData(order, buyer), change: kind, ...(typeof payload.refundId === 'string' && { refundId: payload.refundId }) },
  };
}

export interface FailedJobRow {
  id: string;
  kind: string;
  error: string | null;
  payment_id: string | null;
  updated_at: Date;
}

export const loadFailedJob = async (id: string) =>
  (await query<FailedJobRow & Record<string, unknown>>(
    `select m.id, m.kind, m.error, m.updated_at,
            (select pi.payment_id from payment_items pi join payments p on p.id = pi.payment_id
              where pi.transformation_id = m.id and pi.sold and p.status = 'completed' limit 1) as payment_id
       from media_transformations m where m.id = $1`,
    [id],
  ))[0] ?? null;

export function jobFailedNotice(job: FailedJobRow): OwnerNotice {
  return {
    subject: `A paid ${job.kind} job failed`,
    headline: `A ${job.kind} job failed after it was paid for: the buyer needs help`,
    fields: [['Job', job.id], ['Order', job.payment_id], ['Error', job.error], ['Failed at', job.updated_at.toISOString()]],
    tab: 'orders',
    data: { transformationId: job.id, kind: job.kind, paymentId: job.payment_id, error: job.error },
  };
}
