import { useId } from 'react';
import { BRUSH_SIZES, marksLabel, type BrushSize } from '../../../lib/tool/heal-brush';
import type { HealMarksState } from './useHeal';

/**
 * The heal brush's controls, the same wherever the buyer marks: brush size, how many marks, Undo and Clear,
 * and a live region saying what happened. `countId` names the count for the drawing surface's description.
 */
export default function HealControls({ heal, countId, compact = false }: { heal: HealMarksState; countId: string; compact?: boolean }) {
  const ids = useId();
  return (
    <div className={`flex flex-wrap items-center ${compact ? 'gap-2 text-sm' : 'gap-3'}`}>
      <label className="label flex items-center gap-2" htmlFor={`${ids}-size`}>
        Brush size
      </label>
      <select id={`${ids}-size`} className="field w-auto" value={heal.size} onChange={(e) => heal.setSize(e.currentTarget.value as BrushSize)}>
        {BRUSH_SIZES.map((b) => (
          <option key={b.id} value={b.id}>
            {b.label}
          </option>
        ))}
      </select>
      <span id={countId} className="text-sm font-semibold" data-testid="heal-count">
        {marksLabel(heal.shown.length)}
      </span>
      <button type="button" className="btn-secondary" onClick={heal.undo} disabled={heal.busy || heal.shown.length === 0}>
        Undo
      </button>
      <button type="button" className="link text-sm" onClick={heal.clear} disabled={heal.busy || heal.shown.length === 0}>
        Clear marks
      </button>
      <p className="sr-only" role="status" aria-live="polite">
        {heal.busy ? 'Re-rendering the picture…' : heal.status}
      </p>
    </div>
  );
}
