import { useStore } from '@nanostores/react';
import WatermarkedVideoPlayer from '../../WatermarkedVideoPlayer';
import { MSG } from '../../../lib/messages';
import { transformationItem } from '../../../lib/catalog';
import { site } from '../../../lib/site';
import type { VideoResult } from '../../../lib/tool/api';
import { $purchases } from '../../../lib/cart';
import { videoToast } from '../../../lib/tool/state';
import ResultActions from './ResultActions';

/** A finished video: the watermarked player, Delete, Download (the clean file once bought) and Add to Cart. */
export default function VideoResultCard({ result, onDelete }: { result: VideoResult; onDelete: () => void }) {
  const bought = !!useStore($purchases)[result.transformationId];
  const { price } = transformationItem('video', result.resolution);
  const cartItem = {
    type: 'video',
    videoUrl: result.videoUrl,
    imageUrl: result.originalImageUrl ?? undefined,
    transformationId: result.transformationId,
    resolution: result.resolution,
  } as const;

  return (
    <div className="space-y-4" data-testid="video-result">
      <WatermarkedVideoPlayer videoUrl={result.videoUrl} watermarkText={site.brand} />
      {result.stillUrl && (
        <figure className="flex items-center gap-3" data-testid="video-still">
          <img src={result.stillUrl} alt="Restored still the clip was made from (watermarked preview)" className="h-20 w-auto rounded-md" />
          <figcaption className="text-sm text-muted">Made from your photo restored and colorized first.</figcaption>
        </figure>
      )}
      <ResultActions
        kind="video"
        transformationId={result.transformationId}
        bought={bought}
        price={price}
        cartItem={cartItem}
        downloaded={MSG.videoDownloaded}
        toastOptions={videoToast}
        previewNote={MSG.videoPreviewNote}
        purchasedNote={MSG.purchasedVideoNote}
        onDelete={onDelete}
      />
    </div>
  );
}
