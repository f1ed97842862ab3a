/**
 * Reads a body up to `limit` bytes and stops there: a declared size (Content-Length) over the limit, or a
 * streamed one passing it, throws `tooLarge()` without buffering the rest. One reader for request bodies
 * (http.ts, the chat) and provider downloads.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const declared = Number(declaredLength);
  if (declaredLength !== null && Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
