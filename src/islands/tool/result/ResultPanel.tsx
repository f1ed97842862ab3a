import { forwardRef, type ReactNode } from 'react';

/**
 * The results panel: empty ('Results will appear here'), busy (spinner, message, a real
 * progress bar — determinate when a fraction is known, indeterminate otherwise) or the result.
 */
export interface ResultPanelProps {
  title: string;
  busy: boolean;
  busyText: string;
  note?: string;
  /** 0..1, or null for an indeterminate bar. */
  progress: number | null;
  progressLabel: string;
  children?: ReactNode;
}

const ResultPanel = forwardRef<HTMLElement, ResultPanelProps>(function ResultPanel(
  { title, busy, busyText, note, progress, progressLabel, children },
  ref,
) {
  return (
    <section ref={ref} tabIndex={-1} className="card min-h-64 outline-none" aria-label={title} aria-busy={busy}>
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {busy ? (
        <div className="flex flex-col items-center justify-center gap-4 py-10 text-center" data-testid="busy">
          <span
            aria-hidden="true"
            className="h-10 w-10 animate-spin rounded-full border-4 border-border border-t-accent"
          />
          <p className="font-medium">{busyText}</p>
          {note && <p className="text-sm text-muted">{note}</p>}
          <progress
            className="h-2 w-full max-w-sm accent-[var(--c-accent-strong)]"
            aria-label={progressLabel}
            max={1}
            {...(progress === null ? {} : { value: progress })}
          />
          {progress !== null && <span className="text-sm text-muted">{Math.round(progress * 100)}%</span>}
        </div>
      ) : children ? (
        children
      ) : (
        <p className="grid min-h-48 place-items-center text-muted">Results will appear here</p>
      )}
    </section>
  );
});

export default ResultPanel;
