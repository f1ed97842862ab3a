import { sign, verify } from '../signing';

/**
 * Order links carry HMAC-SHA256(APP_SECRET, payment id). A download link's token names the payment that
 * sold the item and carries HMAC-SHA256(APP_SECRET, payment id + item id): `<payment id>.<signature>`, so
 * a link is good only for that item through that payment, and only while that payment still sells it
 * (order.ts). Unguessable without the secret, issued only in a checkout or order answer, checked in
 * constant time.
 */
export const orderToken = (paymentId: string) => sign('order', paymentId);
export const isValidOrderToken = (paymentId: string, token: string | null) => verify('order', paymentId, token);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const saleValue = (paymentId: string, transformationId: string) => `${paymentId}\n${transformationId}`;

export const downloadToken = (paymentId: string, transformationId: string) => `${paymentId}.${sign('download', saleValue(paymentId, transformationId))}`;

/** The payment a download token was issued for, when the token is genuine for this item; else null. */
export function downloadTokenPayment(transformationId: string, token: string | null): string | null {
  const [paymentId = '', signature, extra] = (token ?? '').split('.');
  if (extra !== undefined || !UUID.test(paymentId)) return null;
  return verify('download', saleValue(paymentId, transformationId), signature) ? paymentId : null;
}
