import { useId, useRef, useState } from 'react';
import { Maximize2 } from 'lucide-react';
import { site } from '../../../lib/site';
import { SLIDER_START } from '../../../lib/before-after';
import HealControls from '../heal/HealControls';
import type { HealMarksState } from '../heal/useHeal';
import { useViewerView } from './useViewerView';
import ViewerToolbar, { type Layout } from './ViewerToolbar';
import { CompareStage, HealStage, type ViewerPictures } from './ViewerStages';

/**
 * Full-size result viewer: a native <dialog> (Escape closes, focus returns to its button) showing the
 * original and the result as a slider or side by side, zoomable to 100 % and beyond and pannable by mouse drag,
 * wheel, touch (drag and pinch) and keyboard. Before purchase it shows the same watermarked preview as the
 * tool, with the watermark overlaid too, and offers the heal brush: marking zoomed in on the result.
 */
export interface ResultViewerProps extends Omit<ViewerPictures, 'watermarkText'> {
  /** Known result size, used until the image reports its own. */
  width?: number;
  height?: number;
  watermarkText?: string;
  /** The heal brush's marks, when the result can still be healed. */
  heal?: HealMarksState;
}

export default function ResultViewer(props: ResultViewerProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        onClick={() => {
          dialogRef.current?.showModal();
          setOpen(true);
        }}
      >
        <Maximize2 aria-hidden="true" className="h-4 w-4" /> View full size
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby="result-viewer-title"
        className="m-0 h-dvh max-h-none w-screen max-w-none bg-bg p-0 text-text backdrop:bg-black/80"
        onClose={() => setOpen(false)}
        data-testid="result-viewer"
      >
        {open && <ViewerBody {...props} onClose={() => dialogRef.current?.close()} />}
      </dialog>
    </>
  );
}

function ViewerBody({ width = 4, height = 3, watermarkText = site.brand, heal, onClose, ...rest }: ResultViewerProps & { onClose: () => void }) {
  const [layout, setLayout] = useState<Layout>('slider');
  const [split, setSplit] = useState(SLIDER_START);
  const [healing, setHealing] = useState(false);
  const healOn = healing && !!heal;
  const { portRef, ...viewer } = useViewerView(width, height, healOn ? 'heal' : layout);
  const pictures: ViewerPictures = { ...rest, watermarkText };
  const countId = useId();

  return (
    <div className="flex h-full flex-col">
      <ViewerToolbar
        layout={layout}
        setLayout={setLayout}
        split={split}
        setSplit={setSplit}
        healing={heal && { on: healOn, toggle: () => setHealing(!healing) }}
        viewer={viewer}
        onClose={onClose}
      />
      {healOn && (
        <div className="border-b border-border px-3 py-2" data-testid="viewer-heal-controls">
          <p className="mb-2 text-sm text-muted">
            Drag along a scratch or click on a spot to remove it; two fingers or the right mouse button move the picture.
            Keyboard: arrow keys move the crosshair (Shift for bigger steps), Enter marks under it, S starts a stroke and
            Enter ends it, Ctrl+Z undoes.
          </p>
          <HealControls heal={heal} countId={countId} compact />
        </div>
      )}
      <p id="result-viewer-help" className="sr-only">
        {healOn
          ? 'Heal brush: arrow keys move the crosshair, Enter marks the spot under it, S starts a stroke. Plus and minus zoom, 1 shows 100 %, 0 fits. Escape closes.'
          : 'Drag, or use the arrow keys, to move the picture. Plus and minus zoom, 1 shows 100 %, 0 fits the picture. Escape closes.'}
      </p>
      {healOn ? <HealStage pictures={pictures} heal={heal} viewer={viewer} portRef={portRef} /> : <CompareStage pictures={pictures} layout={layout} split={split} viewer={viewer} portRef={portRef} />}
    </div>
  );
}
