import type { ReactNode } from 'react';

/** A field's help text, which its error replaces (announced) while there is one. */
export default function FieldHelp({ id, error, children }: { id: string; error?: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm text-muted">
      {error ? (
        <span className="text-danger" role="alert">
          {error}
        </span>
      ) : (
        children
      )}
    </p>
  );
}
