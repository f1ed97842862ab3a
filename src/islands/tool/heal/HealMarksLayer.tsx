import type { CSSProperties } from 'react';
import { HEAL_RADIUS, type HealMark } from '../../../lib/tool/image-schema';
import type { Point } from '../../../lib/tool/heal-brush';

/**
 * The heal brush's marks drawn over a picture of `width` × `height` pixels (an SVG the size of the picture):
 * strokes as thick lines, clicks as dots, the stroke being drawn fainter, and the keyboard crosshair.
 */
export interface HealMarksLayerProps {
  width: number;
  height: number;
  marks: HealMark[];
  live: Point[] | null;
  radius: number;
  /** The keyboard crosshair, drawn while the surface has focus. */
  crosshair: Point | null;
  className?: string;
  style?: CSSProperties;
}

export default function HealMarksLayer({ width: W, height: H, marks, live, radius, crosshair, className = 'pointer-events-none absolute inset-0 h-full w-full', style }: HealMarksLayerProps) {
  const side = Math.max(W, H);
  const toView = (p: Point) => `${p.x * W},${p.y * H}`;
  const shape = (m: HealMark, key: string, pending = false) => {
    const r = (m.radius ?? HEAL_RADIUS.default) * side;
    if (m.points.length === 1) {
      const [p] = m.points;
      return <circle key={key} data-mark={pending ? 'pending' : 'done'} className={pending ? 'fill-accent-2/25' : 'fill-accent-2/45'} cx={p!.x * W} cy={p!.y * H} r={r} />;
    }
    return (
      <polyline
        key={key}
        data-mark={pending ? 'pending' : 'done'}
        className={pending ? 'stroke-accent-2/25' : 'stroke-accent-2/45'}
        points={m.points.map(toView).join(' ')}
        strokeWidth={2 * r}
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    );
  };
  const r = radius * side;
  return (
    <svg className={className} style={style} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true" data-testid="heal-marks">
      {marks.map((m, i) => shape(m, `m${i}`))}
      {live && shape({ points: live, radius }, 'live', true)}
      {crosshair && (
        <g className="stroke-accent-2" strokeWidth={2} data-testid="heal-crosshair">
          <circle cx={crosshair.x * W} cy={crosshair.y * H} r={r} fill="none" vectorEffect="non-scaling-stroke" />
          <line x1={crosshair.x * W - 3 * r} x2={crosshair.x * W + 3 * r} y1={crosshair.y * H} y2={crosshair.y * H} vectorEffect="non-scaling-stroke" />
          <line x1={crosshair.x * W} x2={crosshair.x * W} y1={crosshair.y * H - 3 * r} y2={crosshair.y * H + 3 * r} vectorEffect="non-scaling-stroke" />
        </g>
      )}
    </svg>
  );
}
