/**
 * The success page after a Stripe payment: Stripe sends the buyer back (`?session_id=…`) a moment before
 * its webhook lands, so the page asks the server about the session until the order leaves `pending`.
 */
import { MSG } from './messages';
import type { Confirmation, OrderAnswer } from './orders-schema';

export type { Confirmation };

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

/** The order as the success page reads it (./orders-schema.ts). */
export type PaidOrder = OrderAnswer;

export const CONFIRM_POLL = { intervalMs: 1500, attempts: 20 } as const;

export const sessionOrderUrl = (sessionId: string) => `/api/checkout/sessions/${encodeURIComponent(sessionId)}`;

export const orderUrl = (paymentId: string, orderToken: string) =>
  `/api/orders/${encodeURIComponent(paymentId)}?token=${encodeURIComponent(orderToken)}`;

/**
 * The order an answer carries, read with its schema; else the server's message (a generic one when it sent none, or
 * sent something that is not an order) as an ApiError.
 */
async function readOrder(response: Response): Promise<PaidOrder> {
  // Loaded here, not with the module: the cart imports this one, and the pages that only add to it carry no zod.
  const [{ readResponse }, { orderAnswerSchema }] = await Promise.all([import('./api-answer'), import('./orders-schema')]);
  return readResponse(orderAnswerSchema, response, MSG.orderLoadFailed);
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
