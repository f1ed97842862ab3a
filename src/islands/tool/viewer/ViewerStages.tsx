import type { KeyboardEvent, ReactNode } from 'react';
import Watermark from '../../Watermark';
import { transformFor, type Size } from '../../../lib/tool/zoom';
import type { HealMarksState } from '../heal/useHeal';
import { useViewerHeal } from './useViewerHeal';
import type { PortRef, ViewerView } from './useViewerView';
import type { Layout } from './ViewerToolbar';

/** The pictures the viewer shows, with their labels. */
export interface ViewerPictures {
  beforeSrc: string;
  afterSrc: string;
  beforeLabel: string;
  afterLabel: string;
  beforeAlt: string;
  afterAlt: string;
  watermarkText: string;
}

const stageClass = 'min-h-0 flex-1';
const paneClass = 'cursor-grab overflow-hidden bg-black active:cursor-grabbing';

/** One picture in a pane, placed by the view's transform; `onSize` learns the picture's real size. */
function Layer({ src, alt, viewer, onSize }: { src: string; alt: string; viewer: ViewerView; onSize?: (s: Size) => void }) {
  const { image } = viewer;
  return (
    <img
      src={src}
      alt={alt}
      draggable={false}
      width={image.w}
      height={image.h}
      onLoad={onSize && ((e) => onSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight }))}
      className="absolute left-0 top-0 max-w-none origin-top-left select-none"
      style={{ width: image.w, height: image.h, transform: transformFor(viewer.view, viewer.port) }}
    />
  );
}

const Tag = ({ text, side }: { text: string; side: 'left' | 'right' }) => (
  <span className={`pointer-events-none absolute top-3 rounded bg-black/70 px-2 py-1 text-xs font-semibold text-white ${side === 'left' ? 'left-3' : 'right-3'}`}>{text}</span>
);

/** The stage's shared attributes: a pan-and-zoom surface whose keys its handler takes (role="application"). */
function Stage({ viewer, onKeyDown, className, label, extra, children }: { viewer: ViewerView; onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void; className: string; label: string; extra?: object; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      className={className}
      tabIndex={0}
      role="application"
      aria-label={label}
      aria-describedby="result-viewer-help"
      onKeyDown={onKeyDown}
      data-testid="viewer-stage"
      data-scale={viewer.view.scale.toFixed(4)}
      data-center={`${Math.round(viewer.view.cx)},${Math.round(viewer.view.cy)}`}
      {...extra}
    >
      {children}
    </div>
  );
}

/** Comparing: the original and the result as a slider (`split` % of the original shown) or side by side. */
export function CompareStage({ pictures: p, layout, split, viewer, portRef }: { pictures: ViewerPictures; layout: Layout; split: number; viewer: ViewerView; portRef: PortRef }) {
  const paneProps = { ...viewer.panHandlers, onWheel: viewer.onWheel, onContextMenu: (e: { preventDefault: () => void }) => e.preventDefault(), style: { touchAction: 'none' as const } };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (viewer.onViewKey(e)) e.preventDefault();
  };
  const label = 'Picture: drag or use the arrow keys to move, plus and minus to zoom';
  if (layout === 'slider') {
    return (
      <Stage viewer={viewer} onKeyDown={onKeyDown} className={`${stageClass} relative`} label={label}>
        <div ref={portRef} className={`absolute inset-0 ${paneClass}`} {...paneProps}>
          <Layer src={p.afterSrc} alt={p.afterAlt} viewer={viewer} onSize={viewer.setImage} />
          <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}>
            <Layer src={p.beforeSrc} alt={p.beforeAlt} viewer={viewer} />
          </div>
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 bg-white/90" style={{ left: `${split}%` }} />
          <Tag text={p.beforeLabel} side="left" />
          <Tag text={p.afterLabel} side="right" />
          <Watermark text={p.watermarkText} />
        </div>
      </Stage>
    );
  }
  return (
    <Stage viewer={viewer} onKeyDown={onKeyDown} className={`${stageClass} grid grid-cols-2 gap-1`} label={label}>
      <div ref={portRef} className={`relative ${paneClass}`} {...paneProps}>
        <Layer src={p.beforeSrc} alt={p.beforeAlt} viewer={viewer} />
        <Tag text={p.beforeLabel} side="left" />
      </div>
      <div className={`relative ${paneClass}`} {...paneProps}>
        <Layer src={p.afterSrc} alt={p.afterAlt} viewer={viewer} onSize={viewer.setImage} />
        <Tag text={p.afterLabel} side="left" />
        <Watermark text={p.watermarkText} />
      </div>
    </Stage>
  );
}

/**
 * Healing: the result alone, marked with the heal brush (useViewerHeal). Keys: arrows move the crosshair,
 * Enter marks, S starts a stroke, Ctrl+Z undoes; plus, minus, 1 and 0 zoom as when comparing.
 */
export function HealStage({ pictures: p, heal, viewer, portRef }: { pictures: ViewerPictures; heal: HealMarksState; viewer: ViewerView; portRef: PortRef }) {
  const { pane, marking } = useViewerHeal(heal, viewer, portRef);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const undo = (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z';
    if (undo) heal.undo();
    if (undo || marking.onKey(e) || viewer.onViewKey(e, false)) e.preventDefault();
  };
  return (
    <Stage
      viewer={viewer}
      onKeyDown={onKeyDown}
      className={`${stageClass} relative`}
      label="Picture for the heal brush: drag along a scratch or click a spot; arrow keys move the crosshair, Enter marks"
      extra={{ onFocus: marking.handlers.onFocus, onBlur: marking.handlers.onBlur, 'aria-busy': heal.busy || undefined }}
    >
      {pane(
        <>
          <Layer src={p.afterSrc} alt={p.afterAlt} viewer={viewer} onSize={viewer.setImage} />
          <Tag text={p.afterLabel} side="left" />
          <Watermark text={p.watermarkText} />
        </>,
      )}
    </Stage>
  );
}
