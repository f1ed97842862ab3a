import sharp, { type OutputInfo } from 'sharp';
import { firstUrl, ReplicateError, replicateRun } from './replicate-client';
import { COLORIZER_BUDGET_MAX_MS, COLORIZER_BUDGET_MS, replicateConfig, type ReplicateConfig } from './replicate-colorizer-config';
import { describeModel } from './replicate-models';
import type { ChromaPlanes, Colorizer, LumaPlane } from '../../../engines/image';
import { ColorizerError } from '../../../engines/image';
import { labToRgb, rgbBufferToLab, resize } from '../../../engines/shared';

// Hosted colorization through Replicate's predictions API (the one client, providers/replicate-client.ts): the
// grey restored photo goes as a data URI, or as an uploaded file above 256 KB; only the output's chroma is kept
// (our own restored luminance stays, so the hosted model cannot soften the detail).

export { COLORIZER_BUDGET_MAX_MS, COLORIZER_BUDGET_MS, replicateConfig, type ReplicateConfig };

/** What the buyer reads when the hosted colorizer fails. */
function errorMessage(error: ReplicateError): string {
  switch (error.kind) {
    case 'http':
      return httpMessage(error.status ?? 0);
    case 'unreachable':
      return 'The colorization service could not be reached. Please try again later.';
    case 'timeout':
      return 'The colorization service took too long. Please try again later.';
    case 'failed':
      return 'The colorization service could not process this photo.';
    case 'canceled':
      return 'The colorization job was cancelled.';
    case 'no-output':
      return 'The colorization service returned no image.';
    case 'output-host':
      return 'The colorization service named an output on a host it does not use.';
    case 'download':
      return `The colorized image could not be downloaded from the colorization service${error.status ? ` (HTTP ${error.status})` : ''}.`;
    default:
      return 'The colorization service returned an unexpected answer.';
  }
}

function httpMessage(status: number): string {
  if (status === 401 || status === 403) return 'The colorization service rejected our credentials. Please contact support.';
  if (status === 402) return 'The colorization service account needs attention (billing). Please try again later.';
  if (status === 404) return 'The configured colorization model was not found on the hosted service.';
  if (status === 422) return 'The colorization service could not accept this photo.';
  if (status === 429) return 'The colorization service is busy. Please try again in a minute.';
  return `The colorization service is unavailable (HTTP ${status}). Please try again later.`;
}

/** The luminance as an 8-bit grey PNG whose L* is the input's (not L* × 2.55, which brightens mid-tones). */
function greyPng(input: LumaPlane): Promise<Buffer> {
  const grey = new Uint8Array(input.L.length);
  for (let i = 0; i < grey.length; i++) grey[i] = labToRgb(Math.max(0, Math.min(100, input.L[i])), 0, 0)[0];
  return sharp(grey, { raw: { width: input.width, height: input.height, channels: 1 } }).png().toBuffer();
}

export function replicateColorizer(cfg: ReplicateConfig, extraInput: Record<string, unknown> = {}): Colorizer {
  return {
    id: 'replicate',
    description: `Hosted colorization model on Replicate (${cfg.model ?? cfg.version}); only its colours are kept, over our restored full-resolution luminance.`,
    async colorize(input: LumaPlane, opts): Promise<ChromaPlanes> {
      const png = await greyPng(input);
      const run = replicateRun(cfg, opts?.signal);
      let img: Buffer;
      try {
        // The buyer's prompt goes only to a model that takes one (Replicate would drop it silently anyway).
        const { input: schema } = await describeModel(cfg, cfg, opts?.signal);
        const extra = Object.fromEntries(Object.entries(extraInput).filter(([key]) => !schema || key in schema.properties));
        const photo = await run.fileInput(png, 'image/png');
        const prediction = await run.predict(cfg, { ...cfg.input, ...extra, [cfg.inputKey]: photo });
        const url = firstUrl(prediction.output);
        if (!url) throw new ReplicateError('no-output');
        img = await run.download(url);
      } catch (error) {
        // The caller's abort passes through as it is: it is not a service failure.
        throw error instanceof ReplicateError ? new ColorizerError(errorMessage(error), error) : error;
      } finally {
        await run.close();
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
