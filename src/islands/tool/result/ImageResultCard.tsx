import { useStore } from '@nanostores/react';
import BeforeAfterSlider from '../../BeforeAfterSlider';
import { MSG } from '../../../lib/messages';
import { ITEM_PRICES } from '../../../lib/catalog';
import { site } from '../../../lib/site';
import { previewUrl } from '../../../lib/tool/constants';
import type { ImageResult } from '../../../lib/tool/api';
import { $purchases } from '../../../lib/cart';
import { $imageEdits, $videoTab, animatePhoto, applyColourHints, applyColourReference, setHints } from '../../../lib/tool/state';
import ResultActions from './ResultActions';
import PackageTake from './PackageTake';
import { $package, $taken } from '../../../lib/tool/package-state';
import ResultViewer from '../viewer/ResultViewer';
import HealBrush from '../heal/HealBrush';
import { useHeal } from '../heal/useHeal';
import HintPicker from '../colour/HintPicker';
import ReferencePicker from '../colour/ReferencePicker';

const RESTORED_ALT = 'Restored and colorized photo';
const PREVIEW_ALT = `${RESTORED_ALT} (watermarked preview)`;

/**
 * A finished restoration: the before/after slider, Delete, Download, the full-size viewer and Add to Cart, then
 * (until it is bought) the heal brush, colour hints and a colour reference photo for black-and-white photos.
 */
export default function ImageResultCard({ result, onDelete }: { result: ImageResult; onDelete: () => void }) {
  // Bought: the checkout saved its clean-file link, so Download gives the clean file.
  const bought = !!useStore($purchases)[result.transformationId];
  // With a package open (or once it took this result), the result is taken clean instead of going to the cart; its
  // heal and hints stay open (a re-render is the same image).
  const taken = !!useStore($taken)[result.transformationId];
  const pkg = useStore($package);
  const packageAction = !bought && (taken || (pkg.status === 'open' && pkg.allowance));
  const { applying, hints } = useStore($imageEdits);
  const videoBusy = useStore($videoTab).busy;
  const heal = useHeal();
  const width = result.width ?? undefined;
  const height = result.height ?? undefined;
  const cartItem = { type: 'image', imageUrl: previewUrl(result.transformationId), transformationId: result.transformationId } as const;

  return (
    <div className="space-y-4" data-testid="image-result">
      <BeforeAfterSlider
        beforeSrc={result.originalUrl}
        afterSrc={result.processedUrl}
        beforeAlt="Original photo"
        afterAlt={PREVIEW_ALT}
        beforeLabel="Original"
        afterLabel="Restored"
        watermarkText={site.brand}
        width={result.width ?? 4}
        height={result.height ?? 3}
        eager
      />
      <ResultActions
        kind="image"
        transformationId={result.transformationId}
        bought={bought}
        price={ITEM_PRICES.image}
        cartItem={cartItem}
        downloaded={MSG.imageDownloaded}
        previewNote={MSG.imagePreviewNote}
        purchasedNote={MSG.purchasedImageNote}
        onDelete={onDelete}
        instead={packageAction ? { action: <PackageTake transformationId={result.transformationId} taken={taken} />, note: taken ? MSG.takenImageNote : MSG.packageTakeNote } : undefined}
      >
        <ResultViewer
          beforeSrc={result.originalUrl}
          afterSrc={result.processedUrl}
          beforeAlt="Original photo"
          afterAlt={bought ? RESTORED_ALT : PREVIEW_ALT}
          beforeLabel="Original"
          afterLabel="Restored"
          width={width}
          height={height}
          heal={bought ? undefined : heal}
        />
      </ResultActions>
      <div className="card flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted">Make a 5-second clip from this restored photo, as it is now (heal marks and colours included).</p>
        <button type="button" className="btn-secondary" onClick={() => animatePhoto(result)} disabled={applying || videoBusy}>
          Animate this photo
        </button>
      </div>
      {!bought && <HealBrush imageUrl={result.processedUrl} width={width} height={height} heal={heal} />}
      {!bought && (
        <HintPicker imageUrl={result.processedUrl} width={width} height={height} hints={hints} onChange={setHints} onApply={applyColourHints} busy={applying} />
      )}
      {!bought && result.tone !== 'colour' && (
        <ReferencePicker active={!!result.reference} busy={applying} onApply={(f) => applyColourReference(f)} onRemove={() => applyColourReference(null)} />
      )}
    </div>
  );
}
