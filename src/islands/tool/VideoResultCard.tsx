import { useStore } from '@nanostores/react';
import { Download, ShoppingCart, Trash2 } from 'lucide-react';
import WatermarkedVideoPlayer from '../WatermarkedVideoPlayer';
import { toast } from '../../lib/toast';
import { MSG } from '../../lib/messages';
import { $purchases, addToCart } from '../../lib/cart';
import { formatPrice, transformationItem } from '../../lib/catalog';
import { site } from '../../lib/site';
import { downloadResult, type VideoResult } from '../../lib/tool/api';
import { videoToast } from './useVideoJob';

/** A finished video: the watermarked player, Delete, Download (the clean file once bought) and Add to Cart. */
export default function VideoResultCard({ result, onDelete }: { result: VideoResult; onDelete: () => void }) {
  const purchases = useStore($purchases);
  const bought = !!purchases[result.transformationId];
  const { price } = transformationItem('video', result.resolution);

  const download = async () => {
    try {
      await downloadResult('video', result.transformationId);
      toast.success(MSG.videoDownloaded, videoToast);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : MSG.downloadFailed);
    }
  };

  const add = () => {
    const { ok, message } = addToCart({
      type: 'video',
      videoUrl: result.videoUrl,
      imageUrl: result.originalImageUrl ?? undefined,
      transformationId: result.transformationId,
      resolution: result.resolution,
    });
    (ok ? toast.success : toast.error)(message);
  };

  return (
    <div className="space-y-4" data-testid="video-result">
      <WatermarkedVideoPlayer videoUrl={result.videoUrl} watermarkText={site.brand} />
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-danger" onClick={onDelete}>
          <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete
        </button>
        <button type="button" className="btn-secondary" onClick={download}>
          <Download aria-hidden="true" className="h-4 w-4" /> Download
        </button>
        {bought ? (
          <span className="self-center font-semibold text-success" data-testid="purchased">{MSG.purchased}</span>
        ) : (
          <button type="button" className="btn-primary" onClick={add}>
            <ShoppingCart aria-hidden="true" className="h-4 w-4" /> Add to Cart ({formatPrice(price)})
          </button>
        )}
      </div>
      <p className="text-xs text-muted">{bought ? MSG.purchasedVideoNote : MSG.videoPreviewNote}</p>
    </div>
  );
}
