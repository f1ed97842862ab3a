import type { Confirmation } from '../../../src/lib/checkout-status';
import { query } from '../db';
import { maskEmail } from '../mail/mask';
import { getTransformation, type Transformation } from '../transformations';
import { downloadToken } from './tokens';
import type { Order, OrderDownload, OrderItem, PaymentStatus } from '../../../src/lib/orders-schema';
import { allowancesOfPayment, summary } from '../packages/allowance';

// An order's shape is the shared contract the success page reads it with: src/lib/orders-schema.ts.
export type { Order, OrderDownload, OrderItem };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Download names: restored-image-{timestamp}.jpg and generated-video-{timestamp}.mp4. */
export function downloadFilename(kind: 'image' | 'video', resultPath: string | null, createdAt: Date): string {
  const ext = resultPath?.split('.').pop()?.toLowerCase();
  const stamp = createdAt.getTime();
  if (kind === 'video') return `generated-video-${stamp}.${ext === 'webm' ? 'webm' : 'mp4'}`;
  return `restored-image-${stamp}.${ext === 'png' || ext === 'webp' ? ext : 'jpg'}`;
}

export function downloadUrl(paymentId: string, transformationId: string): string {
  return `/api/downloads/${transformationId}?token=${downloadToken(paymentId, transformationId)}`;
}

interface OrderRow {
  payment_id: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  payment_method: string;
  created_at: Date;
  email: string | null;
  email_status: 'sending' | 'sent' | 'saved' | 'failed' | 'limited' | null;
  transformation_id: string | null;
  package_id: string | null;
  price: string;
  sold: boolean;
  refund_id: string | null;
  kind: 'image' | 'video' | null;
  result_path: string | null;
  t_created_at: Date | null;
  name: string | null;
}

/**
 * The payment with its items (cart order) and a download link per transformation it sold; null if none. An
 * item it paid for but did not sell (a duplicate) is listed as such, without a link.
 */
export async function getOrder(paymentId: string): Promise<Order | null> {
  if (!UUID.test(paymentId)) return null;
  const rows = await query<OrderRow & Record<string, unknown>>(
    `select p.id as payment_id, p.amount, p.currency, p.status, p.payment_method, p.created_at, p.email, p.email_status,
            pi.transformation_id, pi.package_id, pi.price, pi.sold, pi.refund_id,
            m.kind, m.result_path, m.created_at as t_created_at, c.name
       from payments p
       join payment_items pi on pi.payment_id = p.id
       left join media_transformations m on m.id = pi.transformation_id
       left join catalog_prices c
         on (c.item_type = 'package' and c.item_key = pi.package_id)
         or (c.item_type = 'transformation' and c.item_key = m.price_key)
      where p.id = $1
      order by pi.position`,
    [paymentId],
  );
  const first = rows[0];
  if (!first) return null;
  const paid = first.status === 'completed';
  const items: OrderItem[] = rows.map((row) =>
    row.transformation_id
      ? {
          type: row.kind!,
          name: row.name ?? row.kind!,
          price: Number(row.price),
          transformationId: row.transformation_id,
          ...(paid && !row.sold && { duplicate: row.refund_id ? 'refunded' : 'refund-pending' }),
        }
      : { type: 'package', name: row.name ?? row.package_id!, price: Number(row.price), packageId: row.package_id! },
  );
  // Clean files only for what a paid order sold: a pending, failed, refunded or disputed payment lists none.
  const downloads = !paid ? [] : rows
    .filter((row) => row.transformation_id && row.sold)
    .map((row) => ({
      transformationId: row.transformation_id!,
      url: downloadUrl(first.payment_id, row.transformation_id!),
      filename: downloadFilename(row.kind!, row.result_path, row.t_created_at!),
    }));
  return {
    paymentId: first.payment_id,
    amount: Number(first.amount),
    currency: first.currency,
    status: first.status,
    paymentMethod: first.payment_method,
    createdAt: first.created_at.toISOString(),
    items,
    downloads,
    allowances: rows.some((row) => row.package_id) ? (await allowancesOfPayment(first.payment_id)).map((a) => summary(a)) : [],
    confirmation: confirmationOf(first.email, first.email_status),
  };
}

function confirmationOf(email: string | null, status: OrderRow['email_status']): Confirmation {
  if (!email) return { status: 'none' };
  return { status: !status || status === 'sending' ? 'pending' : status, to: maskEmail(email) };
}

/**
 * The transformation when this payment sold it and still does (completed, not refunded or disputed), else
 * null: the only way to its clean file. Another payment that paid for the same item, but did not sell it,
 * gives nothing.
 */
export async function soldTransformation(paymentId: string, transformationId: string): Promise<Transformation | null> {
  const t = await getTransformation(transformationId);
  if (!t || !t.purchased || t.status !== 'completed' || !t.resultPath) return null;
  const sold = await query(
    `select 1 from payment_items pi join payments p on p.id = pi.payment_id
      where pi.payment_id = $1 and pi.transformation_id = $2 and pi.sold and p.status = 'completed'`,
    [paymentId, transformationId],
  );
  return sold.length > 0 ? t : null;
}
