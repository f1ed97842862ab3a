import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { ColorHint } from '../../../lib/tool/api';

/**
 * Colour hints: click (or focus and press Enter) on the result to place a point, pick its colour with a
 * colour input, remove points, then Apply hints to re-render the result with them.
 */
export interface HintPickerProps {
  imageUrl: string;
  /** Result size, so the picture keeps its box (and stays clickable) while it loads. */
  width?: number;
  height?: number;
  hints: ColorHint[];
  onChange: (hints: ColorHint[]) => void;
  onApply: () => void;
  busy: boolean;
  max?: number;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export default function HintPicker({ imageUrl, width, height, hints, onChange, onApply, busy, max = 32 }: HintPickerProps) {
  const [color, setColor] = useState('#c0392b');

  const place = (x: number, y: number) => {
    if (hints.length >= max || busy) return;
    onChange([...hints, { x: round(x), y: round(y), color }]);
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    place((event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      place(0.5, 0.5);
    }
  };

  return (
    <details className="rounded-lg border border-border p-4" data-testid="hints">
      <summary className="cursor-pointer font-semibold">Colour hints (optional)</summary>
      <p className="mt-2 text-sm text-muted">
        Tell the colorizer what colour something should be: choose a colour, click that spot on the picture, then
        apply. Keyboard: Enter places a point in the centre.
      </p>
      <div className="mt-3 flex items-center gap-3">
        <label className="label flex items-center gap-2">
          Colour
          <input type="color" value={color} onChange={(e) => setColor(e.currentTarget.value)} className="h-9 w-14 cursor-pointer" />
        </label>
      </div>
      <div
        role="button"
        tabIndex={0}
        aria-label="Place a colour hint on the picture"
        onClick={onClick}
        onKeyDown={onKey}
        onContextMenu={(e) => e.preventDefault()}
        className="relative mt-3 cursor-crosshair overflow-hidden rounded-md border border-border"
        data-testid="hint-canvas"
      >
        <img src={imageUrl} width={width} height={height} alt="Result, click to place a colour hint" className="block h-auto w-full" decoding="async" draggable={false} />
        {hints.map((h, i) => (
          <span
            key={`${h.x}-${h.y}-${i}`}
            aria-hidden="true"
            className="absolute h-4 w-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow"
            style={{ left: `${h.x * 100}%`, top: `${h.y * 100}%`, background: h.color }}
          />
        ))}
      </div>
      {hints.length > 0 && (
        <ul className="mt-3 space-y-2" aria-label="Colour hints">
          {hints.map((h, i) => (
            <li key={`${h.x}-${h.y}-${i}`} className="flex items-center gap-3 text-sm">
              <span aria-hidden="true" className="h-4 w-4 rounded-full border border-border" style={{ background: h.color }} />
              <span>
                Hint {i + 1}: {h.color} at {Math.round(h.x * 100)}%, {Math.round(h.y * 100)}%
              </span>
              <button
                type="button"
                className="link text-sm"
                onClick={() => onChange(hints.filter((_, j) => j !== i))}
                aria-label={`Remove hint ${i + 1}`}
                disabled={busy}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn-secondary mt-3" onClick={onApply} disabled={busy}>
        {busy ? 'Applying hints…' : 'Apply hints'}
      </button>
    </details>
  );
}
