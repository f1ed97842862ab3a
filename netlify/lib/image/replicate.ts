import sharp, { type OutputInfo } from 'sharp';
import type { ChromaPlanes, Colorizer, LumaPlane } from './colorizer';
import { ColorizerError } from './errors';
import { rgbBufferToLab } from './lab';
import { resize } from './planes';

// Hosted colorization through Replicate's predictions API: create a prediction with the grey
// restored photo as a data URI, poll it until it settles, fetch the output image and keep only its
// chroma (our own restored luminance stays, so the hosted model cannot soften the detail).

export type ReplicateConfig = {
  token: string;
  baseUrl: string;
  /** A version id (POST /v1/predictions) … */
  version?: string;
  /** … or an official model "owner/name" (POST /v1/models/{owner}/{name}/predictions). */
  model?: string;
  /** Name of the image field in the model's input (differs between models). */
  inputKey: string;
  pollMs: number;
  timeoutMs: number;
};

export function replicateConfig(env: NodeJS.ProcessEnv = process.env): ReplicateConfig | null {
  const token = env.REPLICATE_API_TOKEN;
  const version = env.REPLICATE_COLORIZER_VERSION || undefined;
  const model = env.REPLICATE_COLORIZER_MODEL || undefined;
  if (!token || (!version && !model)) return null;
  return {
    token,
    baseUrl: (env.REPLICATE_API_URL || 'https://api.replicate.com').replace(/\/+$/, ''),
    version,
    model,
    inputKey: env.REPLICATE_COLORIZER_INPUT_KEY || 'image',
    pollMs: Number(env.REPLICATE_POLL_MS) || 1000,
    timeoutMs: Number(env.REPLICATE_TIMEOUT_MS) || 120_000,
  };
}

type Prediction = { id?: string; status?: string; output?: unknown; error?: unknown; urls?: { get?: string } };

function httpMessage(status: number): string {
  if (status === 401 || status === 403) return 'The colorization service rejected our credentials. Please contact support.';
  if (status === 402) return 'The colorization service account needs attention (billing). Please try again later.';
  if (status === 404) return 'The configured colorization model was not found on the hosted service.';
  if (status === 422) return 'The colorization service could not accept this photo.';
  if (status === 429) return 'The colorization service is busy. Please try again in a minute.';
  return `The colorization service is unavailable (HTTP ${status}). Please try again later.`;
}

function firstUrl(output: unknown): string | null {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) for (const o of output) { const u = firstUrl(o); if (u) return u; }
  if (output && typeof output === 'object') for (const v of Object.values(output)) { const u = firstUrl(v); if (u) return u; }
  return null;
}

export function replicateColorizer(cfg: ReplicateConfig, extraInput: Record<string, unknown> = {}): Colorizer {
  const headers = { Authorization: `Bearer ${cfg.token}`, 'Content-Type': 'application/json' };
  const call = async (url: string, init: RequestInit, signal?: AbortSignal) => {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal });
    } catch (e) {
      throw new ColorizerError('The colorization service could not be reached. Please try again later.', e);
    }
    if (!res.ok) throw new ColorizerError(httpMessage(res.status));
    return res;
  };
  return {
    id: 'replicate',
    description: `Hosted colorization model on Replicate (${cfg.model ?? cfg.version}); only its colours are kept, over our restored full-resolution luminance.`,
    async colorize(input: LumaPlane, opts): Promise<ChromaPlanes> {
      const grey = new Uint8Array(input.L.length);
      for (let i = 0; i < grey.length; i++) grey[i] = Math.max(0, Math.min(255, Math.round(input.L[i] * 2.55)));
      const png = await sharp(grey, { raw: { width: input.width, height: input.height, channels: 1 } }).png().toBuffer();
      const body = JSON.stringify({
        ...(cfg.version && !cfg.model ? { version: cfg.version } : {}),
        input: { [cfg.inputKey]: `data:image/png;base64,${png.toString('base64')}`, ...extraInput },
      });
      const createUrl = cfg.model ? `${cfg.baseUrl}/v1/models/${cfg.model}/predictions` : `${cfg.baseUrl}/v1/predictions`;
      let pred = (await (await call(createUrl, { method: 'POST', headers, body }, opts?.signal)).json()) as Prediction;
      const deadline = Date.now() + cfg.timeoutMs;
      while (pred.status !== 'succeeded') {
        if (pred.status === 'failed') throw new ColorizerError('The colorization service could not process this photo.', pred.error);
        if (pred.status === 'canceled') throw new ColorizerError('The colorization job was cancelled.');
        if (Date.now() > deadline) throw new ColorizerError('The colorization service took too long. Please try again later.');
        const get = pred.urls?.get ?? (pred.id ? `${cfg.baseUrl}/v1/predictions/${pred.id}` : null);
        if (!get) throw new ColorizerError('The colorization service returned an unexpected answer.');
        await new Promise((r) => setTimeout(r, cfg.pollMs));
        pred = (await (await call(get, { headers: { Authorization: headers.Authorization } }, opts?.signal)).json()) as Prediction;
      }
      const url = firstUrl(pred.output);
      if (!url) throw new ColorizerError('The colorization service returned no image.');
      const img = Buffer.from(await (await call(url, {}, opts?.signal)).arrayBuffer());
      let decoded: { data: Buffer; info: OutputInfo };
      try {
        decoded = await sharp(img, { limitInputPixels: 40_000_000 }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
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
