import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local receiver of the owner's webhook, on loopback, in one of three flavours, each answering as its service is
 * documented today:
 * - `standard`: the owner's own endpoint verifying Standard Webhooks 1.0 (standardwebhooks.com): `webhook-id`,
 *   `webhook-timestamp` (refused more than 5 minutes off), `webhook-signature: v1,<base64 HMAC-SHA256 of
 *   "{id}.{timestamp}.{body}">` with the key from the `whsec_` secret; 401 when the signature does not verify, else
 *   204. Written here from the specification, not from the site's code.
 * - `slack`: an incoming webhook: JSON with a non-empty `text`, answered `200 ok` (text/plain); `400 no_text` or
 *   `400 invalid_payload` otherwise.
 * - `discord`: an Execute Webhook address: `content` of 1–2,000 characters, answered `204`; otherwise 400 with
 *   Discord's JSON error (`50006`, "Cannot send an empty message").
 * `failFirst` answers the first n requests 503 (with Retry-After) whatever they carry: a receiver that is down.
 * Every request is kept (headers, raw body, the status it got).
 */
export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
  /** Whether its Standard Webhooks signature verified (flavour `standard` checks; the others record it too). */
  signatureValid: boolean;
}

export function verifyStandardSignature(secret: string, headers: http.IncomingHttpHeaders, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  const signatures = String(headers['webhook-signature'] ?? '').split(' ');
  if (!id || !/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return signatures.some((entry) => {
    const [version, value = ''] = entry.split(',');
    const given = Buffer.from(value);
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function startWebhookReceiver(opts: { flavour?: 'standard' | 'slack' | 'discord'; secret?: string; failFirst?: number } = {}) {
  const { flavour = 'standard', secret = '', failFirst = 0 } = opts;
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signatureValid = !!secret && verifyStandardSignature(secret, req.headers, body);
      const answer = (status: number, text = '', type = 'text/plain') => {
        received.push({ headers: req.headers, body, status, signatureValid });
        res.writeHead(status, { 'content-type': type, ...(status === 503 && { 'retry-after': '1' }) }).end(text);
      };
      if (received.length < failFirst) return answer(503, 'temporarily unavailable');
      let json: Record<string, unknown> | null;
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        json = null;
      }
      if (flavour === 'standard') return signatureValid ? answer(204) : answer(401, 'bad signature');
      if (flavour === 'slack') {
        if (!json) return answer(400, 'invalid_payload');
        return typeof json.text === 'string' && json.text.trim() ? answer(200, 'ok') : answer(400, 'no_text');
      }
      const content = json?.content;
      if (typeof content !== 'string' || !content.trim() || content.length > 2000) {
        return answer(400, JSON.stringify({ message: 'Cannot send an empty message', code: 50006 }), 'application/json');
      }
      return answer(204);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    accepted: () => received.filter((r) => r.status >= 200 && r.status < 300),
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
