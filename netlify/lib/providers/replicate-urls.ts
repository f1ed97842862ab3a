import { readCapped } from '../read-capped';

/**
 * Where the Replicate clients (image colorizer, video provider) may send requests. A prediction's answer
 * names URLs (urls.get, urls.cancel, the output); a compromised or spoofed answer must not make the server
 * send its API token elsewhere, or fetch from the internal network, or read an endless body.
 */

/** The most bytes an output download may have (a 5-s video or a 40 MP image stays far below). */
export const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** `candidate` when it is on the API's own origin (so the token may go with it), else `fallback`. */
export function apiUrl(candidate: string | undefined, baseUrl: string, fallback: string): string {
  if (!candidate) return fallback;
  try {
    return new URL(candidate).origin === new URL(baseUrl).origin ? candidate : fallback;
  } catch {
    return fallback;
  }
}

/** An output may come from Replicate's delivery hosts over HTTPS, or from the configured API's origin. */
export function isAllowedOutputUrl(url: string, baseUrl: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.origin === new URL(baseUrl).origin) return true;
  return u.protocol === 'https:' && /(^|\.)replicate\.delivery$/.test(u.hostname);
}

/** The body of `res`, refused once it passes `limit` bytes (declared or streamed). */
export function readOutput(res: Response, limit = MAX_OUTPUT_BYTES): Promise<Buffer> {
  return readCapped(res.body, res.headers.get('content-length'), limit, () => new OutputTooLargeError(limit));
}

export class OutputTooLargeError extends Error {
  constructor(limit: number) {
    super(`The provider's output is larger than ${Math.round(limit / 2 ** 20)} MB`);
    this.name = 'OutputTooLargeError';
  }
}
