/**
 * The success page after a Stripe payment: Stripe sends the buyer back (`?session_id=…`) a moment before
 * its webhook lands, so the page asks the server about the session until the order leaves `pending`.
 */
import { MSG } from './messages';
import type { AllowanceSummary } from './packages';

/**
 * What happened to the order confirmation e-mail; the address only ever appears masked (a…@example.com).
 * `pending`: an address was given and the mail has not gone out yet (payment not settled, or being sent).
 */
export type Confirmation = { status: 'none' } | { status: 'pending' | 'sent' | 'saved' | 'failed' | 'limited'; to: string };

/** The success page's sentence about the confirmation: what actually happened, never more. */
export function confirmationSentence(confirmation: Confirmation | undefined): string {
  if (!confirmation || confirmation.status === 'none') return MSG.confirmationNone;
  const { to } = confirmation;
  if (confirmation.status === 'sent') return MSG.confirmationSent(to);
  if (confirmation.status === 'saved') return MSG.confirmationSaved(to);
  if (confirmation.status === 'failed') return MSG.confirmationFailed(to);
  if (confirmation.status === 'limited') return MSG.confirmationLimited(to);
  return MSG.confirmationPending(to);
}

export interface PaidOrder {
  paymentId: string;
  orderToken: string;
  amount: number;
  status: 'pending' | 'completed' | 'failed' | 'refunded' | 'disputed';
  paymentMethod: string;
  createdAt: string;
  /** `duplicate`: paid for here but sold by another payment (the buyer paid twice), so refunded or being refunded. */
  items: { type: 'image' | 'video' | 'package'; name: string; price: number; transformationId?: string; packageId?: string; duplicate?: 'refunded' | 'refund-pending' }[];
  downloads: { transformationId: string; url: string; filename: string }[];
  /** Each paid package's allowance: its link, images in all, used and left, expiry. */
  allowances?: AllowanceSummary[];
  confirmation?: Confirmation;
}

export const CONFIRM_POLL = { intervalMs: 1500, attempts: 20 } as const;

export const sessionOrderUrl = (sessionId: string) => `/api/checkout/sessions/${encodeURIComponent(sessionId)}`;

export const orderUrl = (paymentId: string, orderToken: string) =>
  `/api/orders/${encodeURIComponent(paymentId)}?token=${encodeURIComponent(orderToken)}`;

/** The order an answer carries, or the server's message (a generic one when it sent none) as an Error. */
async function readOrder(response: Response): Promise<PaidOrder> {
  const data = await response.json().catch(() => ({}));
  if (!response.ok || !data.success) throw new Error(data.error || 'Could not load your order');
  return data as PaidOrder;
}

/** A settled order by its id and token (the demo checkout's success address); errors as waitForPayment's. */
export async function loadOrder(
  paymentId: string,
  orderToken: string,
  { fetchImpl = fetch, signal }: { fetchImpl?: typeof fetch; signal?: AbortSignal } = {},
): Promise<PaidOrder> {
  return readOrder(await fetchImpl(orderUrl(paymentId, orderToken), { signal }));
}

/** The order once it is settled, or still pending after `attempts` looks; an unknown session throws. */
export async function waitForPayment(
  sessionId: string,
  { fetchImpl = fetch, signal, ...poll }: { fetchImpl?: typeof fetch; signal?: AbortSignal; intervalMs?: number; attempts?: number } = {},
): Promise<PaidOrder> {
  const { intervalMs, attempts } = { ...CONFIRM_POLL, ...poll };
  for (let attempt = 1; ; attempt++) {
    const order = await readOrder(await fetchImpl(sessionOrderUrl(sessionId), { signal, cache: 'no-store' }));
    if (order.status !== 'pending' || attempt >= attempts) return order;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, intervalMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      }, { once: true });
    });
  }
}

/** The permanent address of a settled order (the link the demo checkout gives), for reloads and bookmarks. */
export const orderPageUrl = (order: Pick<PaidOrder, 'paymentId' | 'orderToken'>) =>
  `/checkout/success?order=${encodeURIComponent(order.paymentId)}&token=${encodeURIComponent(order.orderToken)}`;
