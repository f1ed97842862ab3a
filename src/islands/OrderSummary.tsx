import { useEffect, useState } from 'react';
import { clearCart, rememberDownloads } from '../lib/cart';
import { formatPrice } from '../lib/catalog';
import { MSG } from '../lib/messages';
import { firstTimeInSession } from '../lib/once';
import { toast } from '../lib/toast';

/**
 * The success page's live part: empties the cart (spec 000 §2.11) and, when the page was reached from a
 * checkout (`?order=<paymentId>&token=<orderToken>`), lists the order with its download links and toasts the
 * payment's success.
 */
interface OrderItem {
  type: 'image' | 'video' | 'package';
  name: string;
  price: number;
  transformationId?: string;
}
interface Order {
  paymentId: string;
  amount: number;
  createdAt: string;
  items: OrderItem[];
  downloads: { transformationId: string; url: string; filename: string }[];
}

type State = { kind: 'none' } | { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'loaded'; order: Order };

export default function OrderSummary() {
  const [state, setState] = useState<State>({ kind: 'none' });

  useEffect(() => {
    clearCart();
    const params = new URLSearchParams(window.location.search);
    const order = params.get('order');
    const token = params.get('token');
    if (!order || !token) return;
    setState({ kind: 'loading' });
    const controller = new AbortController();
    fetch(`/api/orders/${encodeURIComponent(order)}?token=${encodeURIComponent(token)}`, { signal: controller.signal })
      .then(async (response) => {
        const data = await response.json().catch(() => ({}));
        if (!response.ok || !data.success) throw new Error(data.error || 'Could not load your order');
        // The tool's Download gives these clean files from now on, wherever the order was paid.
        rememberDownloads((data as Order).downloads);
        setState({ kind: 'loaded', order: data as Order });
        // Toasted here, after the redirect, where the buyer can read it; once per order, not on every reload.
        if (firstTimeInSession(`lumora:order-toasted:${(data as Order).paymentId}`)) toast.success(MSG.checkoutSuccess);
      })
      .catch((error: Error) => {
        if (error.name !== 'AbortError') setState({ kind: 'error', message: error.message });
      });
    return () => controller.abort();
  }, []);

  if (state.kind === 'none') return null;
  if (state.kind === 'loading') {
    return <p className="card text-muted" role="status">Loading your order…</p>;
  }
  if (state.kind === 'error') {
    return (
      <p className="card text-danger" role="alert">
        {state.message}. Keep the link of this page and contact us if the problem persists.
      </p>
    );
  }

  const { order } = state;
  const downloadFor = (id?: string) => order.downloads.find((d) => d.transformationId === id);
  return (
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
              ) : (
                <span className="text-sm text-muted">Our team will e-mail your finished files</span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-4 flex justify-between border-t border-border pt-4 font-semibold">
        <span>Total paid (demonstration)</span>
        <span>{formatPrice(order.amount)}</span>
      </p>
    </section>
  );
}
