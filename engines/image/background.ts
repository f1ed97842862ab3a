/**
 * Work started now and awaited later (libvips runs it in its own threads while this thread computes something
 * else). Until the await, a failure is not reported as an unhandled rejection; the await still throws it.
 */
export function inBackground<T>(work: Promise<T>): Promise<T> {
  work.catch(() => {});
  return work;
}
