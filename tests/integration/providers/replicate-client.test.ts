import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dailyPredictions,
  firstUrl,
  parseModel,
  REPLICATE_DAILY_PREDICTIONS_DEFAULT,
  REPLICATE_POLL_MS_DEFAULT,
  replicateConnection,
  ReplicateError,
  replicateRun,
} from '../../../netlify/lib/providers/replicate-client';
import { forgetModels } from '../../../netlify/lib/providers/replicate-models';
import { MemoryRateLimiter } from '../../../netlify/lib/rate-limit';
import { cancelAfterSeconds, FakeReplicate, type CreateReply, type CreateTarget } from '../../support/fake-replicate';

// The one Replicate client both hosted providers use, against the local stand-in of the predictions API.

function scenario(target: CreateTarget): CreateReply {
  switch (target.name ?? `version-${target.version}`) {
    case 'ok':
      return { script: [{ status: 'processing' }, { status: 'succeeded', output: { thumb: 'x', video: fake.fileUrl('clip.bin') } }] };
    case 'slow':
      return { script: [{ status: 'processing' }] };
    case 'version-c0ffee':
      return { script: [{ status: 'succeeded', output: fake.fileUrl('clip.bin') }] };
    case 'hang':
      return { hang: true };
    default:
      return { error: 404, detail: 'Model not found' };
  }
}
const fake = new FakeReplicate(scenario);
const connection = (over: Record<string, string> = {}) =>
  replicateConnection({ REPLICATE_API_TOKEN: 'test-token', REPLICATE_API_URL: fake.base, REPLICATE_POLL_MS: '10', ...over }, 60_000)!;

beforeAll(async () => {
  await fake.start();
  fake.files['clip.bin'] = { type: 'application/octet-stream', body: Buffer.from('the clip') };
});
afterAll(() => fake.stop());

describe('configuration', () => {
  it('needs a token; one poll default and the caller’s own timeout default', () => {
    expect(replicateConnection({}, 5)).toBeNull();
    expect(replicateConnection({ REPLICATE_API_TOKEN: 't' }, 5)).toEqual({
      token: 't',
      baseUrl: 'https://api.replicate.com',
      pollMs: REPLICATE_POLL_MS_DEFAULT,
      timeoutMs: 5,
    });
    expect(replicateConnection({ REPLICATE_API_TOKEN: 't', REPLICATE_POLL_MS: 'soon', REPLICATE_TIMEOUT_MS: '-1' }, 5)).toMatchObject({
      pollMs: REPLICATE_POLL_MS_DEFAULT,
      timeoutMs: 5,
    });
    expect([dailyPredictions({}), dailyPredictions({ REPLICATE_DAILY_PREDICTIONS: 'many' }), dailyPredictions({ REPLICATE_DAILY_PREDICTIONS: '40' })]).toEqual([REPLICATE_DAILY_PREDICTIONS_DEFAULT, REPLICATE_DAILY_PREDICTIONS_DEFAULT, 40]);
  });

  it('reads "owner/name" and "owner/name:version"', () => {
    expect(parseModel('acme/i2v')).toEqual({ model: 'acme/i2v', version: undefined });
    expect(parseModel(' acme/i2v:abc ')).toEqual({ model: 'acme/i2v', version: 'abc' });
    expect(parseModel(undefined)).toEqual({ model: undefined, version: undefined });
  });

  it('finds the output URL in any shape, preferred fields first', () => {
    expect(firstUrl('https://replicate.delivery/a.png')).toBe('https://replicate.delivery/a.png');
    expect(firstUrl(['no url', { image: 'data:image/png;base64,AA' }])).toBe('data:image/png;base64,AA');
    expect(firstUrl({ thumbnail: 'https://x/t.jpg', video: 'https://x/v.mp4' }, ['video'])).toBe('https://x/v.mp4');
    expect(firstUrl({ caption: 'a photo' })).toBeNull();
  });
});

describe('replicateRun', () => {
  it('creates, polls until succeeded and downloads the output without the token', async () => {
    const from = fake.requests.length;
    const run = replicateRun(connection());
    const seen: string[] = [];
    const prediction = await run.predict({ model: 'acme/ok' }, { prompt: 'hi' }, (p) => seen.push(String(p.status)));
    expect(seen).toEqual(['starting', 'processing']);
    const url = firstUrl(prediction.output, ['video'])!;
    expect((await run.download(url)).toString()).toBe('the clip');
    const requests = fake.requests.slice(from);
    // An official model: asked about once (GET, no prediction), then run on its own endpoint.
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/v1/models/acme/ok', auth: 'Bearer test-token' });
    expect(requests[1]).toMatchObject({ method: 'POST', url: '/v1/models/acme/ok/predictions', auth: 'Bearer test-token', body: { input: { prompt: 'hi' } } });
    expect(requests.at(-1)).toMatchObject({ url: '/files/clip.bin', auth: undefined });
  });

  it('uses the version route when a version is given', async () => {
    const from = fake.requests.length;
    const error = await replicateRun(connection()).predict({ model: 'acme/x', version: 'v9' }, {}).catch((e: unknown) => e);
    expect(fake.requests.slice(from).find((q) => q.method === 'POST')).toMatchObject({ url: '/v1/predictions', body: { version: 'v9', input: {} } });
    expect(error).toMatchObject({ kind: 'http', status: 404, detail: 'Model not found' });
  });

  it('refuses an output on a host the API does not use, and never fetches it', async () => {
    const error = await replicateRun(connection()).download('https://evil.example/x.mp4').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplicateError);
    expect((error as ReplicateError).kind).toBe('output-host');
  });

  it.each([
    ['a prediction that keeps processing (and cancels it)', 'slow', true],
    ['a service that never answers', 'hang', false],
  ])('gives up at the timeout on %s', async (_, name, cancels) => {
    const [started, canceled] = [Date.now(), fake.canceled.length];
    const error = await replicateRun(connection({ REPLICATE_TIMEOUT_MS: '200' })).predict({ model: `acme/${name}` }, {}).catch((e: unknown) => e);
    expect((error as ReplicateError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.canceled.slice(canceled).some((id) => id.startsWith(`${name}-`))).toBe(cancels);
  });

  it('throws the caller’s own abort reason, at once, and cancels the prediction', async () => {
    const controller = new AbortController();
    const [started, canceled] = [Date.now(), fake.canceled.length];
    const run = replicateRun(connection({ REPLICATE_POLL_MS: '5000' }), controller.signal);
    // The caller gives up while the prediction runs (once it exists: a timer could fire before it is created on a busy machine).
    const onPoll = () => setTimeout(() => controller.abort(), 50);
    const error = await run.predict({ model: 'acme/slow' }, {}, onPoll).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ReplicateError);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.canceled.slice(canceled).some((id) => id.startsWith('slow-'))).toBe(true);
  });
});

// Today's API: community models, Cancel-After, 429 with a retry time, the files API, the daily budget.
describe('replicateRun against the API as documented today', () => {
  beforeAll(() => {
    fake.models['someone/ddcolor'] = { official: false, version: 'c0ffee', input: { properties: { image: { type: 'string' } } } };
  });

  it('runs a community owner/name at its latest version (the models endpoint would answer 404), resolving it once', async () => {
    forgetModels();
    const from = fake.requests.length;
    for (let i = 0; i < 2; i++) await replicateRun(connection()).predict({ model: 'someone/ddcolor' }, { image: 'data:,' });
    const requests = fake.requests.slice(from).filter((q) => !q.url.startsWith('/v1/predictions/'));
    expect(requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /v1/models/someone/ddcolor', 'POST /v1/predictions', 'POST /v1/predictions']);
    expect(requests[1]!.body).toEqual({ version: 'c0ffee', input: { image: 'data:,' } });
    // What the endpoint the old client used answers for it:
    const res = await fetch(`${fake.base}/v1/models/someone/ddcolor/predictions`, { method: 'POST', headers: { Authorization: 'Bearer test-token' }, body: '{"input":{}}' });
    expect(res.status).toBe(404);
  });

  it('sends Cancel-After with what is left of the budget, so Replicate cancels the prediction at its end', async () => {
    const before = fake.created.length;
    const error = await replicateRun(connection({ REPLICATE_TIMEOUT_MS: '6000', REPLICATE_POLL_MS: '100' }), AbortSignal.timeout(300))
      .predict({ model: 'acme/slow' }, {})
      .catch((e: unknown) => e);
    expect((error as Error).name).toMatch(/AbortError|TimeoutError/);
    const created = fake.created.slice(before)[0]!;
    expect(created.cancelAfter).toMatch(/^\d+s$/);
    expect(cancelAfterSeconds(created.cancelAfter!)).toBeGreaterThanOrEqual(5);
    expect(cancelAfterSeconds(created.cancelAfter!)).toBeLessThanOrEqual(6);
  });

  it('retries a 429 once after the Retry-After the API names, and counts the prediction once', async () => {
    const budget = new MemoryRateLimiter();
    fake.throttle(1, 1);
    const from = fake.requests.length;
    const prediction = await replicateRun(connection(), undefined, budget).predict({ model: 'acme/ok' }, {});
    expect(prediction.status).toBe('succeeded');
    const creates = fake.requests.slice(from).filter((q) => q.method === 'POST');
    expect(creates).toHaveLength(2);
    expect((await budget.hit('provider:replicate:predictions', 1000, 86_400)).allowed).toBe(true);
    // One counted so far plus this probe: 2 of 2 allowed, the third refused.
    expect((await budget.hit('provider:replicate:predictions', 2, 86_400)).allowed).toBe(false);
  });

  it('does not retry a 429 whose wait does not fit the budget', async () => {
    fake.throttle(1, 30);
    const error = await replicateRun(connection({ REPLICATE_TIMEOUT_MS: '3000' })).predict({ model: 'acme/ok' }, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 429 });
  });

  it('a create the API refuses does not use the daily budget up', async () => {
    const budget = new MemoryRateLimiter();
    for (let i = 0; i < 5; i++) {
      const error = await replicateRun(connection(), undefined, budget).predict({ model: 'acme/missing' }, {}).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'http', status: 404 });
    }
    // Five refusals later, a budget of one prediction is still whole.
    expect((await budget.hit('provider:replicate:predictions', 1, 86_400)).allowed).toBe(true);
  });

  it('sends a file above 256 KB through POST /v1/files and deletes it after the run; a small one inline', async () => {
    const run = replicateRun(connection());
    const big = Buffer.alloc(300 * 1024, 7);
    const url = await run.fileInput(big, 'image/jpeg');
    const id = url.split('/').pop()!;
    expect(url).toBe(`${fake.base}/v1/files/${id}`);
    expect(fake.uploads.get(id)).toMatchObject({ type: 'image/jpeg', filename: 'photo.jpg' });
    expect(fake.uploads.get(id)!.body.equals(big)).toBe(true);
    expect(await run.fileInput(Buffer.from('tiny'), 'image/png')).toBe(`data:image/png;base64,${Buffer.from('tiny').toString('base64')}`);
    await run.close();
    expect(fake.uploads.has(id)).toBe(false);
    expect(fake.deletedFiles).toContain(id);
  });
});
