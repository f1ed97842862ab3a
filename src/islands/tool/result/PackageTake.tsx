import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { PackageCheck } from 'lucide-react';
import { ownerHeaders } from '../../../lib/owner-secrets';
import { $package, takeWithPackage } from '../../../lib/tool/package-state';
import { tell } from '../../../lib/tool/state';

/**
 * "Use 1 of 86": takes the finished result with the open package (one image; again for free). Once taken, Download
 * gives the clean file. A refusal (used up in another tab, expired, refunded) is told in the server's words.
 */
export default function PackageTake({ transformationId, taken }: { transformationId: string; taken: boolean }) {
  const pkg = useStore($package);
  const [busy, setBusy] = useState(false);
  if (taken) {
    return (
      <span className="self-center font-semibold text-success" data-testid="package-taken">
        <PackageCheck aria-hidden="true" className="mr-1 inline h-4 w-4" />
        Taken with your package
      </span>
    );
  }
  const a = pkg.allowance;
  const usable = a?.state === 'active' && a.imagesLeft > 0;
  const take = async () => {
    setBusy(true);
    try {
      tell('success', (await takeWithPackage(transformationId, ownerHeaders(transformationId))).message);
    } catch (error) {
      tell('error', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn-primary" onClick={take} disabled={busy || !usable} data-testid="package-take">
      <PackageCheck aria-hidden="true" className="h-4 w-4" /> {busy ? 'Taking…' : `Use 1 of ${a?.imagesLeft ?? 0}`}
    </button>
  );
}
