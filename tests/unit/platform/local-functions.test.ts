import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { matchFunction, type LocalFunction } from '../../../scripts/platform/functions/catalog';
import { readRequest } from '../../../scripts/platform/node-request';

const fn = (name: string, routes: LocalFunction['routes'] = [], excludedRoutes: LocalFunction['routes'] = []): LocalFunction => ({
  name,
  mainFile: `/x/${name}.mts`,
  routes,
  excludedRoutes,
  background: name.endsWith('-background'),
});
const functions = [
  fn('health', [{ pattern: '/api/health', literal: '/api/health', methods: [] }]),
  fn('items', [{ pattern: '/api/items/:id', expression: '^\\/api\\/items\\/([^/]+?)\\/?$', methods: ['GET'] }], [
    { pattern: '/api/items/special', literal: '/api/items/special', methods: [] },
  ]),
  fn('job-background'),
];

describe('matchFunction', () => {
  it('matches a literal path, case-insensitively and ignoring a trailing slash', () => {
    expect(matchFunction(functions, '/api/health', 'GET')?.fn.name).toBe('health');
    expect(matchFunction(functions, '/API/Health/', 'POST')?.fn.name).toBe('health');
  });
  it('honours methods, parameters and excluded paths', () => {
    expect(matchFunction(functions, '/api/items/42', 'GET')?.route?.pattern).toBe('/api/items/:id');
    expect(matchFunction(functions, '/api/items/42', 'POST')).toBeUndefined();
    expect(matchFunction(functions, '/api/items/special', 'GET')).toBeUndefined();
  });
  it('serves /.netlify/functions/{name} only for functions without a path', () => {
    expect(matchFunction(functions, '/.netlify/functions/job-background', 'POST')).toEqual({ fn: functions[2] });
    expect(matchFunction(functions, '/.netlify/functions/health', 'GET')).toBeUndefined();
    expect(matchFunction(functions, '/.netlify/functions/missing', 'GET')).toBeUndefined();
  });
  it('leaves pages to the static chain', () => {
    expect(matchFunction(functions, '/', 'GET')).toBeUndefined();
    expect(matchFunction(functions, '/api', 'GET')).toBeUndefined();
  });
});

function nodeRequest(method: string, body: Buffer | undefined, headers: Record<string, string> = {}): IncomingMessage {
  const stream = Readable.from(body ? [body.subarray(0, 5), body.subarray(5)] : []) as unknown as IncomingMessage;
  Object.assign(stream, { method, url: '/api/x?y=1', headers: { host: 'localhost:8888', ...headers } });
  return stream;
}

describe('readRequest', () => {
  it('keeps a binary body byte for byte', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x80, 0x7f, 0xc3, 0x28, 0x0a]);
    const req = await readRequest(nodeRequest('POST', bytes, { 'content-type': 'image/jpeg' }), 'http://localhost:8888');
    expect(req).toBeInstanceOf(Request);
    expect(Buffer.from(await (req as Request).arrayBuffer())).toEqual(bytes);
    expect((req as Request).url).toBe('http://localhost:8888/api/x?y=1');
  });
  it('answers 413 past the cap, by declared length or by bytes read', async () => {
    const declared = await readRequest(nodeRequest('POST', Buffer.alloc(1), { 'content-length': '11' }), 'http://h', 10);
    expect((declared as Response).status).toBe(413);
    const counted = await readRequest(nodeRequest('PUT', Buffer.alloc(11)), 'http://h', 10);
    expect((counted as Response).status).toBe(413);
  });
  it('gives GET and an empty DELETE no body', async () => {
    expect((await readRequest(nodeRequest('GET', undefined), 'http://h')) as Request).toMatchObject({ method: 'GET', body: null });
    expect((await readRequest(nodeRequest('DELETE', undefined), 'http://h')) as Request).toMatchObject({ method: 'DELETE', body: null });
  });
});
