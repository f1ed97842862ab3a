import { useEffect, useState } from 'react';
import BeforeAfterSlider from '../../BeforeAfterSlider';
import { loadImageResult, type ImageResult } from '../../../lib/tool/api';
import { setResult } from '../../../lib/tool/state';
import { site } from '../../../lib/site';
import type { BatchItem } from '../../../lib/tool/batch';

/**
 * A finished photo of the batch: before/after, Download (the clean file once taken), and Edit, which opens it in the
 * tab's result panel with the heal brush and colour hints as for a single photo.
 */
export default function BatchResult({ item }: { item: BatchItem }) {
  const [result, setLoaded] = useState<ImageResult | null>(null);
  useEffect(() => {
    let live = true;
    void loadImageResult(item.transformationId!).then((r) => live && setLoaded(r)).catch(() => {});
    return () => {
      live = false;
    };
  }, [item.transformationId]);
  return (
    <div className="mt-2 space-y-2">
      {result ? (
        <BeforeAfterSlider
          beforeSrc={result.originalUrl}
          afterSrc={result.processedUrl}
          beforeAlt={`${item.name}, original`}
          afterAlt={`${item.name}, restored (watermarked preview)`}
          beforeLabel="Original"
          afterLabel="Restored"
          watermarkText={site.brand}
          width={result.width ?? 4}
          height={result.height ?? 3}
        />
      ) : (
        <p className="text-sm text-muted">Loading the preview…</p>
      )}
      {item.note && <p className="text-sm">{item.note}</p>}
      <div className="flex flex-wrap gap-2">
        {item.downloadUrl && (
          <a className="btn-secondary" href={item.downloadUrl} download aria-label={`Download ${item.name}, restored`}>
            Download
          </a>
        )}
        {result && (
          <button
            type="button"
            className="btn-secondary"
            aria-label={`Edit ${item.name}: heal and colour hints`}
            onClick={() => {
              setResult('image', result);
              document.getElementById('panel-image')?.scrollIntoView({ block: 'start' });
            }}
          >
            Edit
          </button>
        )}
      </div>
    </div>
  );
}
