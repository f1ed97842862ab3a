import { useState } from 'react';
import { addPackageToCart } from '../lib/cart';
import { toast } from '../lib/toast';

/** Adds an image package to the shared cart and toasts the result (duplicate rule in src/lib/cart.ts). */
export default function PackageButton({ packageId, label, name, imageUrl, popular = false }: { packageId: string; label: string; name: string; imageUrl: string; popular?: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={`${popular ? 'btn-primary' : 'btn-secondary'} w-full`}
      aria-label={`${label}: add ${name} to cart`}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        const result = addPackageToCart(packageId, imageUrl);
        if (result.ok) toast.success(result.message);
        else toast.info(result.message);
        setBusy(false);
      }}
    >
      {label}
    </button>
  );
}
