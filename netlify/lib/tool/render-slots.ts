import { HttpError } from '../http';
import { query } from '../db';
import { MSG } from '../../../src/lib/messages';

/**
 * A cap on image renders running at once on the whole site (each takes a core and up to ~1 GB at 12 MP),
 * kept in the database (`claim_work_slot`), so every function instance counts against the same number. A
 * render waits up to WAIT_MS for a slot, at most WAITING of them per instance, then is answered 503 with
 * Retry-After rather than piling up. A slot is a lease: an instance stopped mid-render (a function's time
 * limit ends it) frees its slot when the lease runs out.
 */
export const RENDER_SLOTS = {
  running: Number(process.env.MAX_CONCURRENT_RENDERS) || 4,
  waiting: 8,
  waitMs: 20_000,
  /** Longer than any render may run: the hosted colorizer is waited on for up to 120 s. */
  leaseSeconds: 150,
} as const;

const POLL_MS = 250;
let waiting = 0;

const claim = async (): Promise<string | null> =>
  (await query<{ id: string | null }>('select claim_work_slot($1, $2, $3) as id', ['render', RENDER_SLOTS.running, RENDER_SLOTS.leaseSeconds]))[0]?.id ?? null;

const busy = () => new HttpError(503, MSG.renderBusy, { 'Retry-After': '15' });

export async function withRenderSlot<T>(render: () => Promise<T>, { waitMs = RENDER_SLOTS.waitMs }: { waitMs?: number } = {}): Promise<T> {
  let slot = await claim();
  if (!slot) {
    if (waiting >= RENDER_SLOTS.waiting) throw busy();
    waiting++;
    try {
      const deadline = Date.now() + waitMs;
      while (!slot) {
        if (Date.now() >= deadline) throw busy();
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        slot = await claim();
      }
    } finally {
      waiting--;
    }
  }
  try {
    return await render();
  } finally {
    await query('delete from work_slots where id = $1', [slot]).catch((error: Error) => console.error('[render] could not free a render slot:', error.message));
  }
}
