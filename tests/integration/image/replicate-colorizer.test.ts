import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ColorizerError, restoreAndColorize } from '../../../engines/image';
import { colorizerFor, createColorizer } from '../../../netlify/lib/providers/colorizer';
import { replicateColorizer, replicateConfig, COLORIZER_BUDGET_MS } from '../../../netlify/lib/providers/replicate-colorizer';
import { forgetModels } from '../../../netlify/lib/providers/replicate-models';
import type { LumaPlane } from '../../../engines/image';
import { GREY_TO_L, rgbBufferToLab } from '../../../engines/shared';
import { cancelAfterSeconds, closedPortUrl, FakeReplicate, type CreateReply, type CreateTarget } from '../../support/fake-replicate';

// The hosted colorizer against a local server speaking Replicate's predictions API.

const RED: [number, number, number] = [210, 60, 40]; // a* ≈ +57, b* ≈ +46
const BLUE: [number, number, number] = [30, 150, 190]; // a* ≈ −17, b* ≈ −30

/** Raw RGB of a w×h image whose left half is `left` and right half `right`. */
function halves(w: number, h: number, left: number[], right: number[]): Buffer {
  const buf = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) buf.set(x < w / 2 ? left : right, (y * w + x) * 3);
  return buf;
}

/** What the stand-in answers, chosen by the model's name (or the version id). */
function scenario(target: CreateTarget): CreateReply {
  const key = target.name ?? `version-${target.version}`;
  const done = (output: unknown) => ({ status: 'succeeded', output });
  const http = /^http-(\d+)$/.exec(key);
  if (http) return { error: Number(http[1]) };
  switch (key) {
    case 'colorize':
      return { script: [{ status: 'processing' }, done(fake.fileUrl('halves.png'))] };
    case 'version-ddc0':
      return { script: [{ status: 'processing' }, done(fake.fileUrl('halves.png'))] };
    case 'version-slowc':
      return { script: [{ status: 'processing' }] };
    case 'version-v1':
      return { script: [{ status: 'starting' }, { status: 'processing' }, done([fake.fileUrl('halves.png')])] };
    case 'object-output':
      return { script: [done({ caption: 'a photo', image: fake.fileUrl('halves.jpg') })] };
    case 'failed':
      return { script: [{ status: 'processing' }, { status: 'failed', error: 'CUDA out of memory' }] };
    case 'canceled':
      return { script: [{ status: 'canceled' }] };
    case 'slow':
      return { script: [{ status: 'processing' }] };
    case 'hang':
      return { hang: true };
    case 'garbage':
      return { script: [done(fake.fileUrl('garbage.png'))] };
    case 'gone':
      return { script: [done(fake.fileUrl('missing.png'))] };
    case 'no-output':
      return { script: [done(null)] };
    default:
      return { error: 404 };
  }
}
const fake = new FakeReplicate(scenario);

const env = (over: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  REPLICATE_API_TOKEN: 'test-token',
  REPLICATE_API_URL: fake.base,
  REPLICATE_COLORIZER_MODEL: 'acme/colorize',
  REPLICATE_POLL_MS: '10',
  ...over,
});
const colorizer = (over: Record<string, string> = {}, extra: Record<string, unknown> = {}) => replicateColorizer(replicateConfig(env(over))!, extra);

/** 40×30 luminance: a horizontal ramp from L* 5 to 95. */
const W = 40, H = 30;
const luma: LumaPlane = { L: new Float32Array(W * H).map((_, i) => 5 + (90 * (i % W)) / (W - 1)), width: W, height: H };

/** Requests the stand-in received since `from`. */
const since = (from: number) => fake.requests.slice(from);

/** Decodes the data URI a create request carried. */
async function sentImage(input: Record<string, unknown>, key: string) {
  const uri = String(input[key]);
  expect(uri).toMatch(/^data:image\/png;base64,/);
  return sharp(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64')).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
}

beforeAll(async () => {
  await fake.start();
  const raw = { raw: { width: 64, height: 48, channels: 3 as const } };
  fake.files['halves.png'] = { type: 'image/png', body: await sharp(halves(64, 48, RED, BLUE), raw).png().toBuffer() };
  fake.files['halves.jpg'] = { type: 'image/jpeg', body: await sharp(halves(64, 48, RED, BLUE), raw).jpeg({ quality: 95 }).toBuffer() };
  fake.files['garbage.png'] = { type: 'image/png', body: Buffer.from('<html>502 Bad Gateway</html>') };
});
afterAll(() => fake.stop());
afterEach(() => vi.unstubAllEnvs());

describe('replicateConfig', () => {
  it('needs a token and a model or version; reads the input key, base URL and timings', () => {
    expect(replicateConfig({ REPLICATE_COLORIZER_MODEL: 'acme/colorize' })).toBeNull();
    expect(replicateConfig({ REPLICATE_API_TOKEN: 't' })).toBeNull();
    expect(replicateConfig({ REPLICATE_API_TOKEN: 't', REPLICATE_COLORIZER_VERSION: 'v1' })).toMatchObject({
      baseUrl: 'https://api.replicate.com',
      version: 'v1',
      model: undefined,
      inputKey: 'image',
      pollMs: 1000,
      timeoutMs: COLORIZER_BUDGET_MS,
    });
    expect(
      replicateConfig({
        REPLICATE_API_TOKEN: 't',
        REPLICATE_COLORIZER_MODEL: 'acme/colorize',
        REPLICATE_COLORIZER_INPUT_KEY: 'input_image',
        REPLICATE_API_URL: 'http://127.0.0.1:9/',
        REPLICATE_POLL_MS: '5',
        REPLICATE_TIMEOUT_MS: '700',
      }),
    ).toEqual({ token: 't', baseUrl: 'http://127.0.0.1:9', model: 'acme/colorize', version: undefined, inputKey: 'input_image', input: {}, preset: undefined, pollMs: 5, timeoutMs: 700 });
    // The synchronous function's budget: REPLICATE_TIMEOUT_MS may lower it, never raise it past 30 s.
    expect(replicateConfig({ REPLICATE_API_TOKEN: 't', REPLICATE_COLORIZER_MODEL: 'ddcolor', REPLICATE_TIMEOUT_MS: '120000' })!.timeoutMs).toBe(30_000);
    // "owner/name:version", as Replicate shows versioned models, selects that version.
    expect(replicateConfig({ REPLICATE_API_TOKEN: 't', REPLICATE_COLORIZER_MODEL: 'acme/colorize:v1' })).toMatchObject({ model: 'acme/colorize', version: 'v1' });
  });
});

describe('replicateColorizer against a local predictions API', () => {
  it('model route: Bearer token, the grey luminance as a PNG data URI under the configured key, the prompt, polling until succeeded', async () => {
    const from = fake.requests.length;
    const chroma = await colorizer({ REPLICATE_COLORIZER_INPUT_KEY: 'input_image' }, { prompt: 'a summer garden' }).colorize(luma);

    const [lookup, create, ...rest] = since(from);
    expect(lookup).toMatchObject({ method: 'GET', url: '/v1/models/acme/colorize' });
    expect(create).toMatchObject({ method: 'POST', url: '/v1/models/acme/colorize/predictions', auth: 'Bearer test-token' });
    expect(create.body.version).toBeUndefined();
    expect(create.body.input.prompt).toBe('a summer garden');
    expect(create.body.input.image).toBeUndefined();
    const { data, info } = await sentImage(create.body.input, 'input_image');
    expect([info.width, info.height]).toEqual([W, H]);
    // Decoded back to L*, the grey is our luminance (within 8-bit quantisation).
    let worst = 0;
    for (let i = 0; i < data.length; i++) worst = Math.max(worst, Math.abs(GREY_TO_L[data[i]] - luma.L[i]));
    expect(worst).toBeLessThan(0.6);

    const polls = rest.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/predictions/'));
    expect(polls.length).toBe(2); // processing, then succeeded
    for (const p of polls) expect(p.auth).toBe('Bearer test-token');
    const download = rest.find((r) => r.url === '/files/halves.png');
    expect(download).toBeDefined();

    // Only the chroma of the served image comes back, resampled to the input's size: red left, blue right.
    expect([chroma.width, chroma.height, chroma.a.length, chroma.b.length]).toEqual([W, H, W * H, W * H]);
    expect(Object.keys(chroma).sort()).toEqual(['a', 'b', 'height', 'width']);
    for (let y = 0; y < H; y++) {
      for (const x of [2, 10]) {
        expect(chroma.a[y * W + x]).toBeGreaterThan(50);
        expect(chroma.b[y * W + x]).toBeGreaterThan(40);
      }
      for (const x of [29, 37]) {
        expect(chroma.a[y * W + x]).toBeLessThan(-12);
        expect(chroma.b[y * W + x]).toBeLessThan(-25);
      }
    }
  });

  it('version route: POST /v1/predictions with {version, input}; an array output is downloaded', async () => {
    const from = fake.requests.length;
    const chroma = await colorizer({ REPLICATE_COLORIZER_MODEL: '', REPLICATE_COLORIZER_VERSION: 'v1' }).colorize(luma);
    const [create, ...rest] = since(from);
    expect(create).toMatchObject({ method: 'POST', url: '/v1/predictions', auth: 'Bearer test-token' });
    expect(create.body.version).toBe('v1');
    expect(Object.keys(create.body.input)).toEqual(['image']);
    await sentImage(create.body.input, 'image');
    expect(rest.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/predictions/version-v1-')).length).toBe(3);
    expect(chroma.a[W * 15 + 3]).toBeGreaterThan(50);
    expect(chroma.b[W * 15 + 36]).toBeLessThan(-25);
  });

  it('an object output: the image URL is found among its fields (a JPEG here)', async () => {
    const chroma = await colorizer({ REPLICATE_COLORIZER_MODEL: 'acme/object-output' }).colorize(luma);
    expect(chroma.a[W * 15 + 3]).toBeGreaterThan(45);
    expect(chroma.b[W * 15 + 3]).toBeGreaterThan(35);
    expect(chroma.a[W * 15 + 36]).toBeLessThan(-10);
    expect(chroma.b[W * 15 + 36]).toBeLessThan(-22);
  });

  const failures: [string, Record<string, string>, RegExp][] = [
    ['401 (bad token)', { REPLICATE_API_TOKEN: 'wrong' }, /^The colorization service rejected our credentials/],
    ['402', { REPLICATE_COLORIZER_MODEL: 'acme/http-402' }, /account needs attention \(billing\)/],
    ['404', { REPLICATE_COLORIZER_MODEL: 'acme/no-such-model' }, /^The configured colorization model was not found/],
    ['422', { REPLICATE_COLORIZER_MODEL: 'acme/http-422' }, /^The colorization service could not accept this photo\.$/],
    ['429', { REPLICATE_COLORIZER_MODEL: 'acme/http-429' }, /^The colorization service is busy/],
    ['500', { REPLICATE_COLORIZER_MODEL: 'acme/http-500' }, /^The colorization service is unavailable \(HTTP 500\)/],
    ['status failed', { REPLICATE_COLORIZER_MODEL: 'acme/failed' }, /^The colorization service could not process this photo\.$/],
    ['status canceled', { REPLICATE_COLORIZER_MODEL: 'acme/canceled' }, /^The colorization job was cancelled\.$/],
    ['unreadable output image', { REPLICATE_COLORIZER_MODEL: 'acme/garbage' }, /^The colorization service returned an unreadable image\.$/],
    ['output image missing', { REPLICATE_COLORIZER_MODEL: 'acme/gone' }, /^The colorized image could not be downloaded .*\(HTTP 404\)/],
    ['no output', { REPLICATE_COLORIZER_MODEL: 'acme/no-output' }, /^The colorization service returned no image\.$/],
  ];
  it.each(failures)('%s → ColorizerError with a clear message', async (_, over, message) => {
    const err = await colorizer(over).colorize(luma).catch((e) => e);
    expect(err).toBeInstanceOf(ColorizerError);
    expect(err.message).toMatch(message);
  });

  it.each([
    ['while the prediction keeps processing, and cancels it', 'slow', true],
    ['when the service never answers', 'hang', false],
  ])('gives up after REPLICATE_TIMEOUT_MS %s', async (_, name, cancels) => {
    const [started, canceled] = [Date.now(), fake.canceled.length];
    const err = await colorizer({ REPLICATE_COLORIZER_MODEL: `acme/${name}`, REPLICATE_TIMEOUT_MS: '200' }).colorize(luma).catch((e) => e);
    expect(err).toBeInstanceOf(ColorizerError);
    expect(err.message).toBe('The colorization service took too long. Please try again later.');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.canceled.slice(canceled).some((id) => id.startsWith(`${name}-`))).toBe(cancels);
  });

  it('connection refused → "could not be reached"', async () => {
    const err = await colorizer({ REPLICATE_API_URL: await closedPortUrl() }).colorize(luma).catch((e) => e);
    expect(err).toBeInstanceOf(ColorizerError);
    expect(err.message).toBe('The colorization service could not be reached. Please try again later.');
  });

  it('the caller aborting stops at once, cancels the prediction and is not reported as a service failure', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const [started, canceled] = [Date.now(), fake.canceled.length];
    // Polling every 5 s: the abort must not wait for the next poll.
    const slow = colorizer({ REPLICATE_COLORIZER_MODEL: 'acme/slow', REPLICATE_POLL_MS: '5000' });
    const err = await slow.colorize(luma, { signal: controller.signal }).catch((e) => e);
    expect(err).not.toBeInstanceOf(ColorizerError);
    expect(err.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.canceled.slice(canceled).some((id) => id.startsWith('slow-'))).toBe(true);
  });
});

describe('the image pipeline with Replicate configured', () => {
  it('createColorizer picks Replicate when a token and a model or version are set', () => {
    expect(createColorizer(env()).id).toBe('replicate');
    expect(createColorizer(env({ REPLICATE_COLORIZER_MODEL: '', REPLICATE_COLORIZER_VERSION: 'v1' })).id).toBe('replicate');
    expect(createColorizer(env({ REPLICATE_API_TOKEN: '' })).id).not.toBe('replicate');
    expect(createColorizer(env({ REPLICATE_COLORIZER_MODEL: '' })).id).not.toBe('replicate');
  });

  /** A grey photo: bright sky, a mid-grey field, dark ground. */
  const photo = () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="#d0d0d0"/><rect y="50" width="160" height="40" fill="#808080"/><rect y="90" width="160" height="30" fill="#303030"/></svg>`;
    return sharp(Buffer.from(svg)).greyscale().toColourspace('srgb').jpeg({ quality: 95 }).toBuffer();
  };
  /** Mean L*, a*, b* of a rectangle of an RGB JPEG. */
  async function meanLab(jpeg: Buffer, left: number, top: number, width: number, height: number) {
    const { data } = await sharp(jpeg).extract({ left, top, width, height }).raw().toBuffer({ resolveWithObject: true });
    const lab = rgbBufferToLab(data, width, height);
    const mean = (p: Float32Array) => p.reduce((s, v) => s + v, 0) / p.length;
    return { L: mean(lab.L), a: mean(lab.a), b: mean(lab.b) };
  }

  it('restoreAndColorize colours a grey photo from the stand-in, keeping our luminance', async () => {
    for (const [k, v] of Object.entries(env())) vi.stubEnv(k, v!);
    const from = fake.requests.length;
    const res = await restoreAndColorize(await photo(), { model: 'sd-xl', prompt: 'a summer garden', colorizer: colorizerFor('a summer garden') });
    expect(res.tone).toBe('grey');
    expect(res.method).toBe('restoration + replicate colorization');
    const create = since(from).find((r) => r.method === 'POST')!;
    expect(create.body.input.prompt).toBe('a summer garden');
    expect([res.width, res.height]).toEqual([160, 120]);

    const skyLeft = await meanLab(res.image, 10, 10, 50, 30);
    const skyRight = await meanLab(res.image, 100, 10, 50, 30);
    const fieldLeft = await meanLab(res.image, 10, 58, 50, 24);
    const fieldRight = await meanLab(res.image, 100, 58, 50, 24);
    const ground = await meanLab(res.image, 10, 96, 140, 18);
    // The hosted model's chroma: red left, blue right; near its own values in the mid-tones,
    // the same hues (less chroma, the sRGB gamut narrows) in the bright sky.
    expect(fieldLeft.a).toBeGreaterThan(45);
    expect(fieldLeft.b).toBeGreaterThan(35);
    expect(fieldRight.a).toBeLessThan(-12);
    expect(fieldRight.b).toBeLessThan(-22);
    expect(Math.min(skyLeft.a, skyLeft.b)).toBeGreaterThan(5);
    expect(Math.max(skyRight.a, skyRight.b)).toBeLessThan(-3);
    // The served image is L* ≈ 48 (red) and 58 (blue) everywhere; ours keeps its own tones.
    expect(Math.min(skyLeft.L, skyRight.L)).toBeGreaterThan(70);
    expect(ground.L).toBeLessThan(25);
    expect(Math.abs(fieldLeft.L - fieldRight.L)).toBeLessThan(3);
  });

  it('falls back to the exemplar colorizer when the stand-in fails, and says so', async () => {
    for (const [k, v] of Object.entries(env({ REPLICATE_COLORIZER_MODEL: 'acme/http-500' }))) vi.stubEnv(k, v!);
    const from = fake.requests.length;
    const res = await restoreAndColorize(await photo(), { model: 'sd-xl', colorizer: colorizerFor() });
    expect(since(from).some((r) => r.url === '/v1/models/acme/http-500/predictions')).toBe(true);
    expect(res.method).toBe(
      'restoration + exemplar colorization (fallback: The colorization service is unavailable (HTTP 500). Please try again later.)',
    );
    expect([res.width, res.height]).toEqual([160, 120]);
    const stats = await sharp(res.image).stats();
    expect(Math.abs(stats.channels[0].mean - stats.channels[2].mean)).toBeGreaterThan(1); // coloured, not grey
  });
});

// Finding 2 (colour that never arrives) and finding 3 (a call that outlives the function), against the stand-in
// as Replicate answers today.
describe('hosted colorizer presets and budget, as the API is today', () => {
  beforeAll(() => {
    forgetModels();
    // DDColor and DeOldify are community models: their models endpoint is a 404, they run at a version.
    fake.models['piddnad/ddcolor'] = { official: false, version: 'ddc0', input: { required: ['image'], properties: { image: { type: 'string' }, model_size: { enum: ['large', 'tiny'] } } } };
    fake.models['acme/slow-colorizer'] = { official: false, version: 'slowc', input: { properties: { image: { type: 'string' } } } };
  });

  it('REPLICATE_COLORIZER_MODEL=ddcolor runs piddnad/ddcolor at its latest version with the photo under "image" and no prompt it would drop', async () => {
    const from = fake.requests.length;
    const chroma = await colorizer({ REPLICATE_COLORIZER_MODEL: 'ddcolor' }, { prompt: 'a summer garden' }).colorize(luma);
    const posts = since(from).filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.url)).toEqual(['/v1/predictions']);
    expect(posts[0]!.body).toMatchObject({ version: 'ddc0', input: { model_size: 'large' } });
    await sentImage(posts[0]!.body.input, 'image');
    expect(posts[0]!.body.input.prompt).toBeUndefined();
    const created = fake.created.at(-1)!;
    expect(created.dropped).toEqual([]);
    expect(chroma.a[W * 15 + 3]).toBeGreaterThan(50);
  });

  it('the same model as owner/name: the colour arrives (the old client got a 404 on every photo)', async () => {
    const res = await colorizer({ REPLICATE_COLORIZER_MODEL: 'piddnad/ddcolor' }).colorize(luma);
    expect(res.b[W * 15 + 36]).toBeLessThan(-25);
  });

  it('a call that would outlive its budget is cancelled upstream (Cancel-After and a cancel), and the built-in colorizer serves the photo', async () => {
    for (const [k, v] of Object.entries(env({ REPLICATE_COLORIZER_MODEL: 'acme/slow-colorizer', REPLICATE_TIMEOUT_MS: '1500', REPLICATE_POLL_MS: '50' }))) vi.stubEnv(k, v!);
    const [created, canceled] = [fake.created.length, fake.canceled.length];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="#d0d0d0"/><rect y="60" width="160" height="60" fill="#505050"/></svg>`;
    const res = await restoreAndColorize(await sharp(Buffer.from(svg)).greyscale().jpeg().toBuffer(), { model: 'sd-xl', colorizer: colorizerFor() });
    const prediction = fake.created.slice(created)[0]!;
    // Replicate is told to cancel it at the end of the budget even if this function were ended first …
    expect(cancelAfterSeconds(prediction.cancelAfter!)).toBeLessThanOrEqual(5);
    // … and the client cancels it itself when the budget runs out.
    expect(fake.canceled.slice(canceled)).toContain(prediction.id);
    expect(res.method).toBe('restoration + exemplar colorization (fallback: The colorization service took too long. Please try again later.)');
    expect([res.width, res.height]).toEqual([160, 120]);
  });

  it('by default one hosted call fits well inside the synchronous function (60 s): 25 s, and Cancel-After says so', async () => {
    const config = replicateConfig(env({ REPLICATE_COLORIZER_MODEL: 'ddcolor' }))!;
    expect(config.timeoutMs).toBe(25_000);
    const created = fake.created.length;
    await replicateColorizer(config).colorize(luma);
    const cancelAfter = cancelAfterSeconds(fake.created.slice(created)[0]!.cancelAfter!);
    expect(cancelAfter).toBeGreaterThan(15);
    expect(cancelAfter).toBeLessThanOrEqual(25);
  });
});
