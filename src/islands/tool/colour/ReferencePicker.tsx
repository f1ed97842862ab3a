import { useState, type FormEvent } from 'react';
import { FILE_ACCEPT } from '../../../lib/tool/constants';

/**
 * Colour reference photo: the buyer supplies a colour photo of the same place or person (or a similar
 * scene) and the result takes its colours from it instead of the bundled library. Shown for grey and
 * sepia originals only; colour hints still apply on top.
 */
export interface ReferencePickerProps {
  /** The result already takes its colours from a reference photo. */
  active: boolean;
  busy: boolean;
  onApply: (file: File) => void;
  onRemove: () => void;
}

export default function ReferencePicker({ active, busy, onApply, onRemove }: ReferencePickerProps) {
  const [file, setFile] = useState<File | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) onApply(file);
  };

  return (
    <details className="rounded-lg border border-border p-4" data-testid="reference" open={active || undefined}>
      <summary className="cursor-pointer font-semibold">Colour reference photo (optional)</summary>
      <p className="mt-2 text-sm text-muted">
        Have a colour photo of the same place or person, or of a similar scene? Its colours guide the result: each
        area takes the colour of similar-looking areas in your photo. Colour hints still apply on top.
      </p>
      {active && (
        <p className="mt-2 text-sm font-semibold" data-testid="reference-active">
          Colours now come from your reference photo.
        </p>
      )}
      <form className="mt-3 space-y-3" onSubmit={submit} aria-label="Colour reference photo">
        <div>
          <label htmlFor="reference-file" className="label">
            Colour photo (JPEG, PNG or TIFF)
          </label>
          <input
            id="reference-file"
            type="file"
            accept={FILE_ACCEPT.image}
            required
            disabled={busy}
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            className="block w-full text-sm file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-border file:bg-transparent file:px-3 file:py-1.5 file:font-semibold file:text-inherit"
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-secondary" disabled={busy}>
            {busy ? 'Applying…' : 'Use this photo'}
          </button>
          {active && (
            <button type="button" className="link text-sm" onClick={onRemove} disabled={busy}>
              Remove reference
            </button>
          )}
        </div>
      </form>
    </details>
  );
}
