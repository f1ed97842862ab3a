import { useStore } from '@nanostores/react';
import { Archive, RotateCcw } from 'lucide-react';
import { $batch, clearChosen, newBatch, photoCount, retryBatchItem } from '../../../lib/tool/batch-state';
import { $package } from '../../../lib/tool/package-state';
import type { BatchItem } from '../../../lib/tool/batch';
import BatchResult from './BatchResult';
import ScanChoice from './ScanChoice';

const STATE_TEXT: Record<BatchItem['status'], string> = {
  waiting: 'Waiting',
  working: 'Working…',
  done: 'Done',
  failed: 'Failed',
  choosing: 'Several prints: your choice',
  held: 'Waiting for your choice',
  split: 'Split into prints',
};
/** In the grid: the photos, and a scan awaiting its choice (its held prints show inside it; a split scan is its prints). */
const shown = (item: BatchItem) => item.status !== 'held' && item.status !== 'split';

/**
 * The batch under the tab: the photos chosen (before Restore), then the queue as the server keeps it — each photo's
 * state (waiting, working, done, failed with its reason and Retry), the progress over all, the results as a grid with
 * before/after (Edit opens one in the result panel for heal and hints), and Download all (the ZIP, in parts for a
 * large batch). Progress is told in the tool's live region (batch-state.ts); nothing here moves on its own.
 */
export default function BatchPanel() {
  const batch = useStore($batch);
  const pkg = useStore($package);
  const answer = batch.answer;
  if (!batch.chosen.length && !batch.batchId) return null;
  const total = answer ? photoCount(answer) : 0;
  const choosing = answer?.counts.choosing ?? 0;
  const finished = answer ? answer.counts.done + answer.counts.failed : 0;
  const sending = batch.uploads.filter((u) => u.state === 'sending').length;
  const failedUploads = batch.uploads.filter((u) => u.state === 'failed');

  return (
    <section className="card mt-6 space-y-4" aria-labelledby="batch-heading" data-testid="batch">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="batch-heading" className="text-lg font-semibold">
          Your batch
        </h2>
        {batch.batchId && !batch.running && (
          <button type="button" className="btn-secondary" onClick={newBatch}>
            Start another batch
          </button>
        )}
      </div>

      {batch.chosen.length > 0 && (
        <div className="space-y-2" data-testid="batch-chosen">
          <p>
            <strong>{batch.chosen.length} photos</strong> ready: choose the options above and press <em>Restore {batch.chosen.length} photos</em>.{' '}
            {pkg.status === 'open' ? 'Each photo restored uses one image of your package.' : 'Each result goes to your cart, as a single photo does.'}
          </p>
          <ul className="max-h-40 overflow-auto text-sm text-muted" aria-label="Photos chosen">
            {batch.chosen.map((f, i) => (
              <li key={`${f.name}-${i}`}>{f.name}</li>
            ))}
          </ul>
          <button type="button" className="btn-secondary" onClick={clearChosen}>
            Clear the list
          </button>
        </div>
      )}

      {answer && total > 0 && (
        <div>
          <label htmlFor="batch-progress" className="text-sm font-medium">
            <span data-testid="batch-progress-text">{answer.counts.done} of {total} photos done</span>
            {answer.counts.failed > 0 && `, ${answer.counts.failed} failed`}
            {sending > 0 && `, ${sending} still being sent`}
          </label>
          {choosing > 0 && (
            <p className="mt-1 text-sm" data-testid="batch-choosing">
              {choosing === 1 ? 'A scan of several prints waits' : `${choosing} scans of several prints wait`} for your choice below: nothing is spent until you choose.
            </p>
          )}
          <progress id="batch-progress" className="mt-1 h-2 w-full accent-[var(--c-accent-strong)]" max={total} value={finished} />
          {batch.running && answer.counts.waiting + answer.counts.working > 0 && (
            <p className="mt-1 text-xs text-muted">You may close this page: the photos go on, and your package link (or this browser) brings the batch back.</p>
          )}
        </div>
      )}

      {failedUploads.length > 0 && (
        <ul className="space-y-1 text-sm text-danger" aria-label="Photos not sent">
          {failedUploads.map((u, i) => (
            <li key={`${u.name}-${i}`}>
              {u.name}: {u.error}
            </li>
          ))}
        </ul>
      )}

      {answer && answer.zip.length > 0 && (
        <div className="flex flex-wrap items-center gap-3" data-testid="batch-zip">
          {answer.zip.map((part) => (
            <a key={part.part} className="btn-primary" href={part.url} download>
              <Archive aria-hidden="true" className="h-4 w-4" />
              {answer.zip.length === 1 ? `Download all (${part.count} photos, ZIP)` : `Download part ${part.part} of ${answer.zip.length} (${part.count} photos)`}
            </a>
          ))}
        </div>
      )}

      {answer && total > 0 && (
        <ol className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Photos of the batch">
          {answer.items.filter(shown).map((item) => (
            <li key={item.id} className="rounded-lg border border-border p-3" data-testid="batch-item" data-status={item.status}>
              <p className="flex items-center justify-between gap-2 text-sm">
                <span className="truncate font-medium" title={item.name}>{item.name}</span>
                <span className={item.status === 'failed' ? 'text-danger' : item.status === 'done' ? 'text-success' : 'text-muted'} data-testid="batch-item-state">
                  {STATE_TEXT[item.status]}
                </span>
              </p>
              {item.status === 'failed' && (
                <div className="mt-2 space-y-2 text-sm">
                  <p>{item.error}</p>
                  <button type="button" className="btn-secondary" onClick={() => void retryBatchItem(item.id)} aria-label={`Retry ${item.name}`}>
                    <RotateCcw aria-hidden="true" className="h-4 w-4" /> Retry
                  </button>
                </div>
              )}
              {item.keptWhole && <p className="mt-2 text-sm text-muted" data-testid="batch-kept-whole">Kept as one photo. If this is a scan of several prints: {item.keptWhole}</p>}
              {item.status === 'choosing' && <ScanChoice item={item} packageOpen={pkg.status === 'open'} />}
              {item.status === 'done' && item.transformationId && <BatchResult item={item} />}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
