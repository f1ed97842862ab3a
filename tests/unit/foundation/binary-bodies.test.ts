import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { binaryBodyRequest } from '../../../scripts/embedded/binary-bodies';

// The local emulator's work-around for binary bodies (npm start only; real Netlify encodes them itself).
const nodeRequest = (method: string, headers: Record<string, string>, body: Buffer[] = []) =>
  Object.assign(Readable.from(body), { method, url: '/api/x', headers }) as unknown as IncomingMessage;

describe('binaryBodyRequest', () => {
  it('passes GET and text bodies through untouched (their stream is not read)', async () => {
    expect(await binaryBodyRequest(nodeRequest('GET', {}), 'http://h')).toBeNull();
    const json = nodeRequest('POST', { 'content-type': 'application/json' }, [Buffer.from('{}')]);
    expect(await binaryBodyRequest(json, 'http://h')).toBeNull();
    expect(json.readableEnded).toBe(false);
  });

  it('hands a binary body on base64-encoded', async () => {
    const bytes = Buffer.from([0, 255, 1, 2]);
    const req = (await binaryBodyRequest(nodeRequest('POST', { 'content-type': 'image/png' }, [bytes]), 'http://h')) as Request;
    expect(req.method).toBe('POST');
    expect(await req.text()).toBe(bytes.toString('base64'));
  });

  it('turns a bodiless request it has read (a DELETE without content type) into a new Request', async () => {
    const req = (await binaryBodyRequest(nodeRequest('DELETE', {}), 'http://h')) as Request;
    expect(req).toBeInstanceOf(Request);
    expect(req.method).toBe('DELETE');
    expect(req.body).toBeNull();
    expect(new URL(req.url).pathname).toBe('/api/x');
  });

  it('answers 413 past the size limit', async () => {
    const res = await binaryBodyRequest(nodeRequest('POST', {}, [Buffer.alloc(20)]), 'http://h', 10);
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(413);
  });
});
