import { useState } from 'react';
import { chooseScan } from '../../../lib/tool/batch-state';
import type { BatchItem } from '../../../lib/tool/batch';

/**
 * A scan of several prints, before anything is spent: each print as the splitter cut it (straightened, cropped), and
 * the buyer's choice — restore the prints, each its own photo, or keep the scan as one photo.
 */
export default function ScanChoice({ item, packageOpen }: { item: BatchItem; packageOpen: boolean }) {
  const [busy, setBusy] = useState(false);
  const prints = item.split?.prints ?? [];
  const choose = (keep: 'prints' | 'whole') => {
    setBusy(true);
    void chooseScan(item.id, keep).finally(() => setBusy(false));
  };
  return (
    <div className="mt-2 space-y-3 text-sm" data-testid="scan-choice">
      <p>
        This scan holds <strong>{prints.length} prints</strong>. We straightened and cropped each one;{' '}
        {packageOpen ? `restored apart, they use ${prints.length} images of your package.` : `restored apart, each is its own photo in your cart.`}
      </p>
      <ul className="grid grid-cols-3 gap-2" aria-label={`Prints found on ${item.name}`}>
        {prints.map((p, i) => (
          <li key={i} className="flex items-center justify-center rounded border border-border bg-surface-2 p-1">
            <img
              src={p.thumb}
              alt={`Print ${i + 1}${Math.abs(p.angle) >= 0.5 ? `, straightened by ${Math.abs(Math.round(p.angle))}°` : ''}`}
              width={Math.round(p.width >= p.height ? 120 : (120 * p.width) / p.height)}
              height={Math.round(p.height > p.width ? 120 : (120 * p.height) / p.width)}
              loading="lazy"
              decoding="async"
            />
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => choose('prints')}>
          Restore {prints.length} prints
        </button>
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => choose('whole')}>
          Keep the scan whole
        </button>
      </div>
    </div>
  );
}
