import { useEffect, useState } from 'react';
import { clearCart, rememberDownloads } from '../lib/cart';
import { formatPrice } from '../lib/catalog';
import { confirmationSentence, loadOrder, orderPageUrl, waitForPayment, type PaidOrder } from '../lib/checkout-status';
import { MSG } from '../lib/messages';
import { firstTimeInSession } from '../lib/once';
import { toast } from '../lib/toast';
import { $packageKey, expiryDate, keyFromHash, type AllowanceSummary } from '../lib/packages';
import { PACKAGE_VALID_MONTHS } from '../lib/catalog';

/**
 * The success page's live part. After a demo checkout (`?order=<paymentId>&token=<orderToken>`) it lists
 * the order with its download links and empties the cart. After Stripe (`?session_id=…`) it says the
 * payment is being confirmed and asks again until the verified webhook has landed; only a completed
 * payment empties the cart, lists downloads and toasts the success. Above the order it says what happened
 * to the confirmation e-mail (sent, saved locally, failed, or none asked for: keep this page's links).
 */
type Order = Omit<PaidOrder, 'orderToken'>;

/** What the page says instead of the order when the payment did not (or no longer does) sell anything. */
const ENDED: Partial<Record<PaidOrder['status'], string>> = {
  failed: MSG.paymentNotCompleted,
  refunded: MSG.paymentRefunded,
  disputed: MSG.paymentDisputed,
};

type State =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'confirming' }
  | { kind: 'slow'; sessionId: string }
  | { kind: 'error'; message: string }
  | { kind: 'ended'; message: string }
  | { kind: 'loaded'; order: Order };

export default function OrderSummary() {
  const [state, setState] = useState<State>({ kind: 'none' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => followOrder(setState), [attempt]);

  if (state.kind === 'loaded') return <OrderDetails order={state.order} />;
  return <OrderStatus state={state} onRetry={() => setAttempt((n) => n + 1)} />;
}

/**
 * Follows the page's address: a Stripe session is waited for until its payment settles, a demo order is loaded
 * by its token; `setState` learns each step. Returns the cleanup that abandons the requests.
 */
function followOrder(setState: (state: State) => void): () => void {
  const params = new URLSearchParams(window.location.search);
  const sessionId = params.get('session_id');
  const order = params.get('order');
  const token = params.get('token');
  const controller = new AbortController();
  const fail = (error: Error) => {
    if (error.name !== 'AbortError') setState({ kind: 'error', message: error.message });
  };
  const show = (loaded: Order) => {
    const ended = ENDED[loaded.status];
    if (ended) return setState({ kind: 'ended', message: ended });
    clearCart();
    // The tool's Download gives these clean files from now on, wherever the order was paid.
    rememberDownloads(loaded.downloads);
    // The package this order gave opens in the tool from now on, in this browser, without its link.
    const live = (loaded.allowances ?? []).find((a) => a.state === 'active');
    const key = live && keyFromHash(new URL(live.link, window.location.origin).hash);
    if (key) $packageKey.set(key);
    setState({ kind: 'loaded', order: loaded });
    // Toasted here, after the redirect, where the buyer can read it; once per order, not on every reload.
    if (firstTimeInSession(`lumora:order-toasted:${loaded.paymentId}`)) toast.success(MSG.checkoutSuccess);
  };

  if (sessionId) {
    setState({ kind: 'confirming' });
    waitForPayment(sessionId, { signal: controller.signal })
      .then((paid) => {
        if (paid.status === 'pending') return setState({ kind: 'slow', sessionId });
        if (ENDED[paid.status]) return show(paid);
        // A reload or a bookmark now opens the order directly.
        window.history.replaceState(null, '', orderPageUrl(paid));
        show(paid);
      })
      .catch(fail);
    return () => controller.abort();
  }

  clearCart();
  if (!order || !token) return () => {};
  setState({ kind: 'loading' });
  loadOrder(order, token, { signal: controller.signal }).then(show).catch(fail);
  return () => controller.abort();
}

/** Every state but the loaded order: nothing, loading, confirming, still pending (with a retry), ended, failed. */
function OrderStatus({ state, onRetry }: { state: Exclude<State, { kind: 'loaded' }>; onRetry: () => void }) {
  if (state.kind === 'none') return null;
  if (state.kind === 'loading') {
    return <p className="card text-muted" role="status">Loading your order…</p>;
  }
  if (state.kind === 'confirming') {
    return <p className="card text-muted" role="status" data-testid="payment-confirming">{MSG.paymentConfirming}</p>;
  }
  if (state.kind === 'slow') {
    return (
      <div className="card space-y-3" role="status">
        <p>{MSG.paymentStillConfirming}</p>
        <button type="button" className="btn-secondary" onClick={onRetry}>
          Check again
        </button>
      </div>
    );
  }
  if (state.kind === 'ended') {
    return <p className="card" role="alert">{state.message}</p>;
  }
  return (
    <p className="card text-danger" role="alert">
      {state.message}. Keep the link of this page and contact us if the problem persists.
    </p>
  );
}

/** The settled order: what happened to the confirmation e-mail, each item with its download, the total. */
function OrderDetails({ order }: { order: Order }) {
  const downloadFor = (id?: string) => order.downloads.find((d) => d.transformationId === id);
  return (
    <>
      <p className="text-lg" data-testid="confirmation">{confirmationSentence(order.confirmation)}</p>
      <section className="card" aria-labelledby="order-heading" data-testid="order-summary">
        <h2 id="order-heading" className="text-xl font-bold">Your order</h2>
        <p className="mt-1 text-sm text-muted">
          Order <span className="font-mono">{order.paymentId}</span> · {new Date(order.createdAt).toLocaleString()}
        </p>
        <ul className="mt-4 divide-y divide-border">
          {order.items.map((item, index) => {
            const download = downloadFor(item.transformationId);
            return (
              <li key={`${item.transformationId ?? item.name}-${index}`} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span>
                  <span className="font-medium">{item.name}</span>{' '}
                  <span className="text-muted">{formatPrice(item.price)}</span>
                </span>
                {download ? (
                  <a className="btn-primary" href={download.url} download={download.filename}>
                    Download {item.type === 'video' ? 'video' : 'image'}
                  </a>
                ) : item.duplicate ? (
                  <span className="text-sm text-muted" data-testid="duplicate">
                    {item.duplicate === 'refunded' ? MSG.itemDuplicateRefunded : MSG.itemDuplicatePending}
                  </span>
                ) : null}
                {item.type === 'package' && <PackageAllowance allowance={order.allowances?.find((a) => a.packageId === item.packageId)} />}
              </li>
            );
          })}
        </ul>
        <p className="mt-4 flex justify-between border-t border-border pt-4 font-semibold">
          <span>{order.paymentMethod === 'demo' ? 'Total paid (demonstration)' : 'Total paid'}</span>
          <span>{formatPrice(order.amount)}</span>
        </p>
      </section>
    </>
  );
}

/**
 * What a paid package gives and how to use it: images left of the total, the expiry, and its secret link (kept in this
 * browser too). Before the payment is confirmed there is no allowance yet.
 */
function PackageAllowance({ allowance }: { allowance: AllowanceSummary | undefined }) {
  if (!allowance) return <p className="w-full text-sm text-muted">Your package's images are ready the moment the payment is confirmed.</p>;
  if (allowance.state === 'revoked') return <p className="w-full text-sm" role="note">{MSG.packageRevoked}</p>;
  const href = new URL(allowance.link, window.location.origin).href;
  return (
    <div className="w-full space-y-2 rounded-md bg-surface-2 p-4 text-sm" data-testid="package-allowance">
      <p>
        <strong data-testid="package-left">{allowance.imagesLeft} of {allowance.imagesTotal} images left</strong>, to use until{' '}
        <time dateTime={allowance.expiresAt}>{expiryDate(allowance.expiresAt)}</time> ({PACKAGE_VALID_MONTHS} months from today).
      </p>
      <p>
        Open your package in the tool, add your photos (many at once if you like) and download each restored photo, or all
        of them as a ZIP, the moment it is done.
      </p>
      <p>
        <a className="btn-primary" href={allowance.link} data-testid="package-link">Open your package</a>
      </p>
      <p className="text-muted">
        This link is the key to your images: keep it private. This browser remembers it; for another device, copy it:{' '}
        <code className="break-all select-all" data-testid="package-link-text">{href}</code>
      </p>
    </div>
  );
}
