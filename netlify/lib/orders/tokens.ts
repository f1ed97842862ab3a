import { sign, verify } from '../signing';

/**
 * Order links carry HMAC-SHA256(APP_SECRET, payment id); download links a per-item
 * HMAC-SHA256(APP_SECRET, transformation id). Both are unguessable without the secret, issued only in a
 * checkout or order answer, and checked in constant time. A download also requires the item be purchased.
 */
export const orderToken = (paymentId: string) => sign('order', paymentId);
export const isValidOrderToken = (paymentId: string, token: string | null) => verify('order', paymentId, token);

export const downloadToken = (transformationId: string) => sign('download', transformationId);
export const isValidDownloadToken = (transformationId: string, token: string | null) =>
  verify('download', transformationId, token);
