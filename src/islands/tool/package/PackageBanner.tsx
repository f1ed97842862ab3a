import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { MSG } from '../../../lib/messages';
import { expiryDate } from '../../../lib/packages';
import { $package, closePackage, openPackage } from '../../../lib/tool/package-state';
import { announce } from '../../../lib/tool/state';
import LostLinkForm from './LostLinkForm';

/**
 * Above the tabs: the package open in this browser (images left of the total, until when), or why its link opens
 * nothing, and "Lost your link?". Opening reads the package only; nothing is spent until a result is taken.
 */
export default function PackageBanner() {
  const pkg = useStore($package);
  useEffect(() => {
    void openPackage().then(() => {
      const { status, allowance } = $package.get();
      if (status === 'open' && allowance) announce(MSG.packageOpened(allowance.name, allowance.imagesLeft));
    });
  }, []);
  const a = pkg.allowance;
  return (
    <section aria-label="Your package" className="mb-6 space-y-3">
      {pkg.status === 'open' && a && (
        <div className="card flex flex-wrap items-center justify-between gap-3" data-testid="package-banner">
          <p>
            <strong>{a.name}</strong>:{' '}
            <span data-testid="package-left">{a.imagesLeft} left</span> of {a.imagesTotal} images
            {a.state === 'active' && <>, until <time dateTime={a.expiresAt}>{expiryDate(a.expiresAt)}</time></>}.
            <span className="block text-sm text-muted">
              {a.state === 'active' && 'Each restored photo you take uses one image; its heal, hints and downloads stay free.'}
              {a.state === 'used-up' && MSG.packageUsedUp}
              {a.state === 'revoked' && MSG.packageRevoked}
              {a.state === 'expired' && (
                <>
                  {MSG.packageExpired(expiryDate(a.expiresAt)).replace(' Please contact us at /contact — we will help.', '')}{' '}
                  <a href="/contact" className="underline">Contact us</a>: we will help.
                </>
              )}
            </span>
          </p>
          <button type="button" className="btn-secondary" onClick={closePackage}>
            Close package
          </button>
        </div>
      )}
      {pkg.status === 'invalid' && (
        <p className="card" role="alert">
          {pkg.error ?? MSG.packageLinkInvalid}
        </p>
      )}
      <LostLinkForm open={pkg.status === 'invalid'} />
    </section>
  );
}
