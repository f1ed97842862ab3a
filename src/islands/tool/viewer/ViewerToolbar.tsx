import { Brush, X, ZoomIn, ZoomOut } from 'lucide-react';
import { ZOOM_STEP, zoomTo } from '../../../lib/tool/zoom';
import type { ViewerView } from './useViewerView';

export type Layout = 'slider' | 'side';

/**
 * The full-size viewer's toolbar: layout (slider or side by side), the slider's split, the heal brush toggle
 * (when the result can still be healed), zoom (out, level, in, 100 %, fit) and close.
 */
export interface ViewerToolbarProps {
  layout: Layout;
  setLayout: (layout: Layout) => void;
  split: number;
  setSplit: (split: number) => void;
  /** Present when the heal brush is offered: whether it is on, and the toggle. */
  healing?: { on: boolean; toggle: () => void };
  viewer: ViewerView;
  onClose: () => void;
}

export default function ViewerToolbar({ layout, setLayout, split, setSplit, healing, viewer, onClose }: ViewerToolbarProps) {
  const percent = Math.round(viewer.view.scale * 100);
  const healOn = !!healing?.on;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-border p-3">
      <h2 id="result-viewer-title" className="mr-auto text-lg font-semibold">Full-size view</h2>
      {!healOn && (
        <div role="group" aria-label="Layout" className="flex gap-1">
          {(['slider', 'side'] as const).map((m) => (
            <button key={m} type="button" className="btn-secondary px-3 py-1 text-sm aria-pressed:bg-accent-strong aria-pressed:text-white" aria-pressed={layout === m} onClick={() => setLayout(m)}>
              {m === 'slider' ? 'Slider' : 'Side by side'}
            </button>
          ))}
        </div>
      )}
      {layout === 'slider' && !healOn && (
        <label className="flex items-center gap-2 text-sm">
          <span>Split</span>
          <input type="range" min={0} max={100} step={1} value={split} onChange={(e) => setSplit(Number(e.currentTarget.value))} aria-label="Comparison position" className="w-28" />
        </label>
      )}
      {healing && (
        <button type="button" className="btn-secondary px-3 py-1 text-sm aria-pressed:bg-accent-strong aria-pressed:text-white" aria-pressed={healOn} onClick={healing.toggle}>
          <Brush aria-hidden="true" className="h-4 w-4" /> Heal
        </button>
      )}
      <div role="group" aria-label="Zoom" className="flex items-center gap-1">
        <button type="button" className="btn-secondary px-2 py-1" aria-label="Zoom out" onClick={() => viewer.zoomBy(1 / ZOOM_STEP)}>
          <ZoomOut aria-hidden="true" className="h-4 w-4" />
        </button>
        <output className="w-14 text-center text-sm tabular-nums" aria-live="polite" data-testid="zoom-level">{percent} %</output>
        <button type="button" className="btn-secondary px-2 py-1" aria-label="Zoom in" onClick={() => viewer.zoomBy(ZOOM_STEP)}>
          <ZoomIn aria-hidden="true" className="h-4 w-4" />
        </button>
        <button type="button" className="btn-secondary px-2 py-1 text-sm" onClick={() => viewer.update((v) => zoomTo(v, 1, viewer.image, viewer.port))}>100 %</button>
        <button type="button" className="btn-secondary px-2 py-1 text-sm" onClick={viewer.fit}>
          Fit
        </button>
      </div>
      <button type="button" className="btn-secondary px-2 py-1" aria-label="Close full-size view" onClick={onClose}>
        <X aria-hidden="true" className="h-5 w-5" />
      </button>
    </div>
  );
}
