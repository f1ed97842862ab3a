import { HttpError } from '../http';
import { MSG } from '../../../src/lib/messages';

/**
 * A cap on renders running at once in this process (each takes a core and up to ~1 GB at 12 MP): up to
 * RUNNING render, up to WAITING more wait their turn in order, and anything beyond is answered at once with
 * 503 and Retry-After rather than piling up until the machine runs out of memory.
 */
export const RENDER_SLOTS = { running: Number(process.env.MAX_CONCURRENT_RENDERS) || 2, waiting: 8 } as const;

let running = 0;
const queue: (() => void)[] = [];

export async function withRenderSlot<T>(render: () => Promise<T>): Promise<T> {
  if (running >= RENDER_SLOTS.running) {
    if (queue.length >= RENDER_SLOTS.waiting) throw new HttpError(503, MSG.renderBusy, { 'Retry-After': '15' });
    await new Promise<void>((resolve) => queue.push(resolve));
  } else running++;
  try {
    return await render();
  } finally {
    // Hand the slot straight to the next in line (running stays the same), or free it.
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}
