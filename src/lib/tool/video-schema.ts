import { z } from '../zod';
import { MSG } from '../messages';
import { PROMPT_MAX, PROMPT_MIN } from './constants';
import { DEFAULT_VIDEO_RESOLUTION, VIDEO_DURATION_SECONDS, VIDEO_RESOLUTIONS, type VideoResolution } from './video-modes';

// The video tool's request, shared: the island validates the same body before uploading. No Node imports here.

const DATA_URL = /^data:image\/(jpeg|png);base64,[A-Za-z0-9+/]+={0,2}$/;

export const videoPromptSchema = z
  .string({ error: MSG.videoPromptBlank })
  .trim()
  .min(1, MSG.videoPromptBlank)
  .min(PROMPT_MIN, MSG.videoPromptMin)
  .max(PROMPT_MAX, MSG.videoPromptMax);

/** 720p or 1080p; the island checks the choice with the same schema the server applies. */
export const videoResolutionSchema = z.enum(VIDEO_RESOLUTIONS, { error: MSG.videoResolution });

export const processVideoRequestSchema = z.object({
  imageData: z
    .string({ error: MSG.videoInvalidType })
    .regex(DATA_URL, MSG.videoInvalidType),
  prompt: videoPromptSchema,
  mode: z.enum(['standard', 'cinematic'], { error: MSG.selectModel }),
  resolution: videoResolutionSchema.default(DEFAULT_VIDEO_RESOLUTION),
  duration: z.literal(VIDEO_DURATION_SECONDS, { error: `Videos are ${VIDEO_DURATION_SECONDS} seconds long` }).default(VIDEO_DURATION_SECONDS),
  watermark: z.boolean().optional(),
});

export type ProcessVideoRequest = z.infer<typeof processVideoRequestSchema>;

/** A video job's resolution from its stored hints (720p for jobs from before the choice existed). */
export function jobResolution(hints: Record<string, unknown>): VideoResolution {
  return videoResolutionSchema.catch(DEFAULT_VIDEO_RESOLUTION).parse(hints.resolution);
}

/** Splits a validated data URL into its declared type and bytes' base64 (decoding stays server-side). */
export function parseImageDataUrl(dataUrl: string): { mimeType: 'image/jpeg' | 'image/png'; base64: string } | null {
  const m = /^data:(image\/(?:jpeg|png));base64,(.*)$/.exec(dataUrl);
  return m ? { mimeType: m[1] as 'image/jpeg' | 'image/png', base64: m[2] } : null;
}
