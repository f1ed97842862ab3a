import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Film, ImageIcon, Trash2 } from 'lucide-react';
import { $cartItems, $cartProcessing, $cartTotal, checkout, removeFromCart, thumbnailUrl, type CartItem } from '../../../lib/cart';
import { findImagePackage, formatPrice, packageTermsLine } from '../../../lib/catalog';
import { MSG } from '../../../lib/messages';
import { toast } from '../../../lib/toast';
import { paymentMode } from '../../../lib/tool/api';

/** The cart card below the tabs: items, total, Proceed to Checkout. */
function Thumb({ item }: { item: CartItem }) {
  const [broken, setBroken] = useState(false);
  const src = thumbnailUrl(item);
  if (src && !broken) {
    return <img src={src} alt="" className="h-12 w-12 rounded object-cover" onError={() => setBroken(true)} />;
  }
  const Icon = item.type === 'video' ? Film : ImageIcon;
  return (
    <span className="grid h-12 w-12 place-items-center rounded bg-surface-2" aria-hidden="true">
      <Icon className="h-6 w-6 text-muted" />
    </span>
  );
}

export default function CartCard() {
  const items = useStore($cartItems);
  const total = useStore($cartTotal);
  const processing = useStore($cartProcessing);
  const [mode, setMode] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  useEffect(() => {
    void paymentMode().then(setMode);
  }, []);

  // A form, so the browser checks the e-mail (type="email") before anything is sent.
  const pay = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await checkout({ email });
    if (result.ok && 'redirectUrl' in result) {
      // "Redirecting to payment…" helps while Stripe's page loads; the payment's own success toast is shown
      // by the success page, where the buyer can see it.
      if (result.message !== MSG.checkoutSuccess) toast.success(result.message);
      window.location.assign(result.redirectUrl);
    } else {
      // The server's own words (written for the buyer): what to do, e.g. remove an item made in another browser.
      toast.error(result.message);
    }
  };

  return (
    <section id="cart" className="card mt-10 scroll-mt-24" aria-labelledby="cart-heading">
      <h2 id="cart-heading" className="mb-4 text-xl font-bold">
        Your Cart
      </h2>
      {items.length === 0 ? (
        <p className="text-muted">Your cart is empty. Add a restored image or a generated video to buy it.</p>
      ) : (
        <ul className="divide-y divide-border" aria-label="Cart items">
          {items.map((item) => (
            <li key={item.id} className="flex items-center gap-4 py-3">
              <Thumb item={item} />
              <span className="flex-1">
                <span className="font-medium">{item.name}</span>
                {item.packageId && findImagePackage(item.packageId) && (
                  <span className="block text-sm text-muted" data-testid="cart-package-terms">{packageTermsLine(findImagePackage(item.packageId)!)}</span>
                )}
              </span>
              <span className="tabular-nums">{formatPrice(item.price)}</span>
              <button
                type="button"
                className="rounded p-2 text-muted hover:text-danger"
                aria-label={`Remove ${item.name} from cart`}
                onClick={() => toast.success(removeFromCart(item.id).message)}
                disabled={processing}
              >
                <Trash2 aria-hidden="true" className="h-4 w-4" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="mt-4 border-t border-border pt-4" onSubmit={pay}>
        <label htmlFor="cart-email" className="block text-sm font-medium">
          E-mail for your order confirmation <span className="font-normal text-muted">(optional)</span>
        </label>
        <input
          id="cart-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={320}
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-describedby="cart-email-hint"
          className="field mt-1 max-w-sm"
          disabled={processing}
        />
        <p id="cart-email-hint" className="mt-1 text-xs text-muted">
          We send your download links (and a package's link) there and use it for nothing else. Leave it empty to keep the links from the next page.
        </p>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
          <p className="text-lg font-semibold">
            Total: <span data-testid="cart-total">{formatPrice(total)}</span>
          </p>
          <button type="submit" className="btn-primary" disabled={items.length === 0 || processing}>
            {processing ? 'Processing…' : 'Proceed to Checkout'}
          </button>
        </div>
      </form>
      {mode === 'demo' && <p className="mt-2 text-xs text-muted">Demonstration checkout: no real payment is taken.</p>}
      {mode === 'stripe' && <p className="mt-2 text-xs text-muted">Secure payment by Stripe: you will enter your card details on Stripe's page.</p>}
    </section>
  );
}
