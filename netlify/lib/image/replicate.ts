import sharp, { type OutputInfo } from 'sharp';
import { apiUrl, isAllowedOutputUrl, readOutput } from '../providers/replicate-urls';
import { replicatePollMs } from '../providers/replicate-config';
import type { ChromaPlanes, Colorizer, LumaPlane } from './colorizer';
import { ColorizerError } from './errors';
import { labToRgb, rgbBufferToLab } from './lab';
import { resize } from './planes';

// Hosted colorization through Replicate's predictions API: create a prediction with the grey
// restored photo as a data URI, poll it until it settles, fetch the output image and keep only its
// chroma (our own restored luminance stays, so the hosted model cannot soften the detail).

export type ReplicateConfig = {
  token: string;
  baseUrl: string;
  /** A version id (POST /v1/predictions); wins over `model` when both are set … */
  version?: string;
  /** … or an official model "owner/name" (POST /v1/models/{owner}/{name}/predictions). */
  model?: string;
  /** Name of the image field in the model's input (differs between models). */
  inputKey: string;
  pollMs: number;
  /** Bound on the whole exchange: create, polling and the download of the result. */
  timeoutMs: number;
};

const positive = (v: string | undefined, fallback: number) => (Number(v) > 0 ? Number(v) : fallback);

export function replicateConfig(env: NodeJS.ProcessEnv = process.env): ReplicateConfig | null {
  const token = env.REPLICATE_API_TOKEN?.trim();
  // Replicate's pages show versioned models as "owner/name:version"; that form selects the version.
  const [model, pinned] = (env.REPLICATE_COLORIZER_MODEL?.trim() ?? '').split(':');
  const version = env.REPLICATE_COLORIZER_VERSION?.trim() || pinned || undefined;
  if (!token || (!version && !model)) return null;
  return {
    token,
    baseUrl: (env.REPLICATE_API_URL?.trim() || 'https://api.replicate.com').replace(/\/+$/, ''),
    version,
    model: model || undefined,
    inputKey: env.REPLICATE_COLORIZER_INPUT_KEY?.trim() || 'image',
    pollMs: replicatePollMs(env),
    timeoutMs: positive(env.REPLICATE_TIMEOUT_MS, 120_000),
  };
}

type Prediction = { id?: string; status?: string; output?: unknown; error?: unknown; urls?: { get?: string; cancel?: string } };

const SETTLED = ['succeeded', 'failed', 'canceled', 'aborted'];
const TIMED_OUT = 'The colorization service took too long. Please try again later.';

function httpMessage(status: number): string {
  if (status === 401 || status === 403) return 'The colorization service rejected our credentials. Please contact support.';
  if (status === 402) return 'The colorization service account needs attention (billing). Please try again later.';
  if (status === 404) return 'The configured colorization model was not found on the hosted service.';
  if (status === 422) return 'The colorization service could not accept this photo.';
  if (status === 429) return 'The colorization service is busy. Please try again in a minute.';
  return `The colorization service is unavailable (HTTP ${status}). Please try again later.`;
}

/** The first URL in a model's output, whatever its shape (a string, a list, an object of fields). */
function firstUrl(output: unknown): string | null {
  if (typeof output === 'string') return /^(https?:|data:)/i.test(output) ? output : null;
  if (Array.isArray(output)) for (const o of output) { const u = firstUrl(o); if (u) return u; }
  if (output && typeof output === 'object') for (const v of Object.values(output)) { const u = firstUrl(v); if (u) return u; }
  return null;
}

/** The luminance as an 8-bit grey PNG whose L* is the input's (not L* × 2.55, which brightens mid-tones). */
function greyPng(input: LumaPlane): Promise<Buffer> {
  const grey = new Uint8Array(input.L.length);
  for (let i = 0; i < grey.length; i++) grey[i] = labToRgb(Math.max(0, Math.min(100, input.L[i])), 0, 0)[0];
  return sharp(grey, { raw: { width: input.width, height: input.height, channels: 1 } }).png().toBuffer();
}

/** Waits `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function replicateColorizer(cfg: ReplicateConfig, extraInput: Record<string, unknown> = {}): Colorizer {
  const auth = { Authorization: `Bearer ${cfg.token}` };
  return {
    id: 'replicate',
    description: `Hosted colorization model on Replicate (${cfg.model ?? cfg.version}); only its colours are kept, over our restored full-resolution luminance.`,
    async colorize(input: LumaPlane, opts): Promise<ChromaPlanes> {
      const deadline = Date.now() + cfg.timeoutMs;
      const caller = opts?.signal;
      /** What a failed request or body read means: the caller's abort, the time budget spent, or `otherwise`. */
      const failed = (e: unknown, otherwise: string): unknown => {
        if (caller?.aborted) return caller.reason;
        return new ColorizerError(Date.now() >= deadline ? TIMED_OUT : otherwise, e);
      };
      /** One request, bounded by the caller's signal and what is left of the time budget. */
      const call = async (url: string, init: RequestInit, failure: (status: number) => string) => {
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new ColorizerError(TIMED_OUT);
        const timeout = AbortSignal.timeout(remaining);
        let res: Response;
        try {
          res = await fetch(url, { ...init, signal: caller ? AbortSignal.any([caller, timeout]) : timeout });
        } catch (e) {
          throw failed(e, timeout.aborted ? TIMED_OUT : 'The colorization service could not be reached. Please try again later.');
        }
        if (!res.ok) throw new ColorizerError(failure(res.status));
        return res;
      };
      const prediction = async (res: Response): Promise<Prediction> => {
        try {
          return (await res.json()) as Prediction;
        } catch (e) {
          throw failed(e, 'The colorization service returned an unexpected answer.');
        }
      };

      const png = await greyPng(input);
      const body = JSON.stringify({
        ...(cfg.version ? { version: cfg.version } : {}),
        input: { [cfg.inputKey]: `data:image/png;base64,${png.toString('base64')}`, ...extraInput },
      });
      const createUrl = cfg.version ? `${cfg.baseUrl}/v1/predictions` : `${cfg.baseUrl}/v1/models/${cfg.model}/predictions`;
      const jsonHeaders = { ...auth, 'Content-Type': 'application/json' };
      let pred = await prediction(await call(createUrl, { method: 'POST', headers: jsonHeaders, body }, httpMessage));
      try {
        while (pred.status !== 'succeeded') {
          if (pred.status === 'failed') throw new ColorizerError('The colorization service could not process this photo.', pred.error);
          if (pred.status === 'canceled' || pred.status === 'aborted') throw new ColorizerError('The colorization job was cancelled.');
          const own = pred.id ? `${cfg.baseUrl}/v1/predictions/${pred.id}` : null;
          const get = own ? apiUrl(pred.urls?.get, cfg.baseUrl, own) : null;
          if (!get) throw new ColorizerError('The colorization service returned an unexpected answer.');
          const wait = Math.min(cfg.pollMs, deadline - Date.now());
          if (wait <= 0) throw new ColorizerError(TIMED_OUT);
          await pause(wait, caller);
          if (caller?.aborted) throw caller.reason;
          const next = await prediction(await call(get, { headers: auth }, httpMessage));
          pred = { ...next, urls: next.urls ?? pred.urls };
        }
      } catch (e) {
        // Stop paying for a prediction nobody will collect (best effort; it may be finished already).
        const cancel = pred.id ? apiUrl(pred.urls?.cancel, cfg.baseUrl, `${cfg.baseUrl}/v1/predictions/${pred.id}/cancel`) : null;
        if (cancel && !SETTLED.includes(pred.status ?? '')) {
          await fetch(cancel, { method: 'POST', headers: auth, signal: AbortSignal.timeout(5000) }).catch(() => {});
        }
        throw e;
      }

      const url = firstUrl(pred.output);
      if (!url) throw new ColorizerError('The colorization service returned no image.');
      if (!url.startsWith('data:') && !isAllowedOutputUrl(url, cfg.baseUrl)) throw new ColorizerError('The colorization service named an output on a host it does not use.');
      const res = await call(url, {}, (s) => `The colorized image could not be downloaded from the colorization service (HTTP ${s}).`);
      let img: Buffer;
      try {
        img = await readOutput(res);
      } catch (e) {
        throw failed(e, 'The colorized image could not be downloaded from the colorization service.');
      }
      let decoded: { data: Buffer; info: OutputInfo };
      try {
        decoded = await sharp(img, { limitInputPixels: 40_000_000 })
          .rotate()
          .removeAlpha()
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true });
      } catch (e) {
        throw new ColorizerError('The colorization service returned an unreadable image.', e);
      }
      const lab = rgbBufferToLab(decoded.data, decoded.info.width, decoded.info.height, decoded.info.channels);
      return {
        a: resize(lab.a, lab.width, lab.height, input.width, input.height),
        b: resize(lab.b, lab.width, lab.height, input.width, input.height),
        width: input.width,
        height: input.height,
      };
    },
  };
}
