import { readCapped } from '../read-capped';

// Chat answers use the one JSON answer and error shape of every function (netlify/lib/http.ts:
// `{ success: false, error }`); only the body reader is the chat's, for its own "too large" message.

/**
 * Reads the body as text, refusing more than `maxBytes`: first by the declared Content-Length, then
 * while streaming, so an undeclared or lying body is never buffered whole.
 */
export async function readBodyCapped(req: Request, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false }> {
  try {
    const bytes = await readCapped(req.body, req.headers.get('content-length'), maxBytes, () => new Error('too large'));
    return { ok: true, text: new TextDecoder().decode(bytes) };
  } catch {
    return { ok: false };
  }
}
