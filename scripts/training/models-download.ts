// Download-and-verify logic of `npm run models:fetch` (scripts/training/models-fetch.ts), importable by tests.
// A model is installed only once its sha256 matches a pinned value: it is streamed to a temporary file
// next to the destination while being hashed, then renamed over the destination (atomic on one file
// system), so a running server never sees a half-written or unverified model.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ONNX_IO, onnxModelPath, onnxSidecarPath, type OnnxIo } from '../../engines/image';

export type ModelEntry = {
  name: string;
  url: string;
  sha256: string | null;
  bytes: number | null;
  approxMB: number;
  licence: string;
  size: number;
  io: OnnxIo;
  contract: string;
  hashSource: string | null;
};
export type Manifest = { default: string; models: Record<string, ModelEntry> };

/** What to download, what it must hash to, where it goes, and what to record next to it. */
export type FetchPlan = {
  label: string;
  url: string;
  sha256: string;
  bytes: number | null;
  dest: string;
  sidecar: Record<string, unknown>;
};
export type FetchResult = { action: 'installed' | 'already-present'; dest: string; sidecarPath: string; sha256: string; bytes: number };

/** A refusal or failure the user can act on; the CLI prints `message` and exits non-zero. */
export class ModelFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFetchError';
  }
}

export const MANIFEST_PATH = fileURLToPath(new URL('./models.json', import.meta.url));
const SHA256 = /^[0-9a-f]{64}$/i;

export function loadManifest(file = MANIFEST_PATH): Manifest {
  const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  for (const [id, e] of Object.entries(m.models ?? {})) {
    const bad = (what: string) => new ModelFetchError(`${path.basename(file)}: model "${id}" has ${what}.`);
    if (!/^https:\/\//.test(e.url)) throw bad('a url that is not https');
    if (e.sha256 !== null && !SHA256.test(e.sha256)) throw bad('a sha256 that is not 64 hex digits (use null when none is published)');
    if (!ONNX_IO.includes(e.io)) throw bad(`an io other than ${ONNX_IO.join(', ')}`);
    if (!(Number.isInteger(e.size) && e.size > 0)) throw bad('no input size');
  }
  if (!m.models?.[m.default]) throw new ModelFetchError(`${path.basename(file)}: the default model "${m.default}" is not listed.`);
  return m;
}

export const USAGE = `Usage: npm run models:fetch -- [--model <id>] [--url <url> --sha256 <hex>] [--io ${ONNX_IO.join('|')}] [--size <S>] [--dest <file>] [--list]
  Installs a colorizer model (default: the manifest's default) as COLORIZER_ONNX_MODEL or .models/colorizer.onnx.
  --url/--sha256 (or COLORIZER_ONNX_URL/COLORIZER_ONNX_SHA256) install your own export; a download is
  installed only when its sha256 matches the pinned value.`;

/** Resolves command-line flags and environment overrides against the manifest. Throws ModelFetchError. */
export function planFetch(argv: string[], env: NodeJS.ProcessEnv, manifest: Manifest): FetchPlan {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { model: { type: 'string' }, url: { type: 'string' }, sha256: { type: 'string' }, io: { type: 'string' }, size: { type: 'string' }, dest: { type: 'string' } },
      strict: true,
    }));
  } catch (e) {
    throw new ModelFetchError(`${(e as Error).message}\n${USAGE}`);
  }
  const id = values.model ?? manifest.default;
  const entry = manifest.models[id];
  if (!entry) throw new ModelFetchError(`Unknown model "${id}"; the manifest lists: ${Object.keys(manifest.models).join(', ')}.`);
  const url = values.url ?? (env.COLORIZER_ONNX_URL?.trim() || entry.url);
  const custom = url !== entry.url;
  const given = values.sha256 ?? (env.COLORIZER_ONNX_SHA256?.trim() || undefined);
  const sha256 = given ?? (custom ? null : entry.sha256);
  if (!sha256) {
    throw new ModelFetchError(
      custom
        ? `No sha256 for ${url}. Pass --sha256 <64 hex digits> (or set COLORIZER_ONNX_SHA256) with the hash of your export: an unverified download is never installed.`
        : `No published sha256 is pinned for "${id}" (${url}), so its download cannot be verified. If you have checked the file yourself, pass its hash explicitly with --sha256 <64 hex digits>.`,
    );
  }
  if (!SHA256.test(sha256)) throw new ModelFetchError(`--sha256 must be 64 hexadecimal digits (got "${sha256}").`);
  const io = values.io ?? (custom ? 'l-norm' : entry.io);
  if (!ONNX_IO.includes(io as OnnxIo)) throw new ModelFetchError(`--io must be one of ${ONNX_IO.join(', ')} (got "${io}").`);
  const size = values.size !== undefined ? Number(values.size) : custom ? null : entry.size;
  if (size !== null && !(Number.isInteger(size) && size > 0)) throw new ModelFetchError(`--size must be a positive integer (got "${values.size}").`);
  const label = custom ? `your model from ${url}` : id;
  return {
    label,
    url,
    sha256: sha256.toLowerCase(),
    bytes: custom || given ? null : entry.bytes,
    dest: path.resolve(values.dest ?? onnxModelPath(env)),
    sidecar: custom
      ? { model: 'custom', url, io, size }
      : { model: id, name: entry.name, url, io, size, licence: entry.licence, contract: entry.contract },
  };
}

export async function sha256OfFile(file: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(file), h);
  return h.digest('hex');
}

/** Writes `text` to `file` through a temporary file and a rename. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/**
 * Installs `plan.url` at `plan.dest` if the file there does not already hash to `plan.sha256`.
 * On any failure (HTTP error, network error, wrong size, wrong hash) the temporary file is deleted,
 * `plan.dest` is left as it was, and a ModelFetchError says what happened.
 */
export async function fetchModel(plan: FetchPlan, opts: { progress?: (received: number, total: number | null) => void } = {}): Promise<FetchResult> {
  const sidecarPath = onnxSidecarPath(plan.dest);
  const sidecar = `${JSON.stringify({ ...plan.sidecar, sha256: plan.sha256 }, null, 2)}\n`;
  if (existsSync(plan.dest) && (await sha256OfFile(plan.dest)) === plan.sha256) {
    if (!existsSync(sidecarPath) || readFileSync(sidecarPath, 'utf8') !== sidecar) await writeAtomic(sidecarPath, sidecar);
    return { action: 'already-present', dest: plan.dest, sidecarPath, sha256: plan.sha256, bytes: statSync(plan.dest).size };
  }
  await mkdir(path.dirname(plan.dest), { recursive: true });
  const tmp = `${plan.dest}.${process.pid}.part`;
  try {
    let res: Response;
    try {
      res = await fetch(plan.url, { redirect: 'follow' });
    } catch (e) {
      throw new ModelFetchError(`Download failed: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message} (${plan.url}).`);
    }
    if (!res.ok || !res.body) throw new ModelFetchError(`Download failed: HTTP ${res.status} ${res.statusText} from ${plan.url}.`);
    const total = Number(res.headers.get('content-length')) || null;
    const hash = createHash('sha256');
    let received = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        received += chunk.length;
        opts.progress?.(received, total);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), tap, createWriteStream(tmp, { flags: 'wx', flush: true }));
    } catch (e) {
      throw new ModelFetchError(`Download interrupted after ${received} bytes: ${(e as Error).message} (${plan.url}).`);
    }
    const got = hash.digest('hex');
    if (plan.bytes !== null && received !== plan.bytes) {
      throw new ModelFetchError(`Size mismatch for ${plan.url}: expected ${plan.bytes} bytes, got ${received}. The download was deleted; ${plan.dest} was not changed.`);
    }
    if (got !== plan.sha256) {
      throw new ModelFetchError(`sha256 mismatch for ${plan.url}: expected ${plan.sha256}, got ${got} (${received} bytes). The download was deleted; ${plan.dest} was not changed.`);
    }
    await rename(tmp, plan.dest);
    await writeAtomic(sidecarPath, sidecar);
    return { action: 'installed', dest: plan.dest, sidecarPath, sha256: got, bytes: received };
  } finally {
    await rm(tmp, { force: true });
  }
}
