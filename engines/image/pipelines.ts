import type { RestoreOptions } from './restore/restore';
import type { ImageModel } from '../../src/lib/tool/image-schema';

/** What each buyer-facing model choice runs (descriptions live in schema.ts IMAGE_MODELS). */
export type Pipeline = {
  restore: RestoreOptions;
  /** Long side of the chroma plane; chroma is upsampled guided by full-resolution L*. */
  colourSide: number;
  quality: 'full' | 'fast';
  /** Chroma gain after colorization (1 = as produced). */
  saturation: number;
  /** Split-tone grade: warm highlights, cool shadows. */
  splitTone: boolean;
};

export const PIPELINES: Record<ImageModel, Pipeline> = {
  'sd-xl': {
    restore: { workPixels: 2_000_000, denoise: 0.85, localContrast: 0, sharpen: 0.5, fade: 1, vignette: 0.12 },
    colourSide: 320,
    quality: 'full',
    saturation: 1,
    splitTone: false,
  },
  'sd-v1.5': {
    restore: { workPixels: 800_000, denoise: 0.8, localContrast: 0, sharpen: 0.4, fade: 1, vignette: 0.12 },
    colourSide: 192,
    quality: 'fast',
    saturation: 1,
    splitTone: false,
  },
  'kandinsky-2': {
    restore: { workPixels: 2_000_000, denoise: 0.85, localContrast: 0.4, sharpen: 0.5, fade: 1, vignette: 0.12 },
    colourSide: 320,
    quality: 'full',
    saturation: 1.4,
    splitTone: true,
  },
};
