import { z } from '../zod';
import { MSG } from '../messages';
import { PROMPT_MAX, PROMPT_MIN } from './constants';
import { VIDEO_DURATION_SECONDS } from './video-modes';

// The video tool's request, shared: the island validates the same body before uploading. No Node imports here.

const DATA_URL = /^data:image\/(jpeg|png);base64,[A-Za-z0-9+/]+={0,2}$/;

export const videoPromptSchema = z
  .string({ error: MSG.videoPromptBlank })
  .trim()
  .min(1, MSG.videoPromptBlank)
  .min(PROMPT_MIN, MSG.videoPromptMin)
  .max(PROMPT_MAX, MSG.videoPromptMax);

export const processVideoRequestSchema = z.object({
  imageData: z
    .string({ error: MSG.videoInvalidType })
    .regex(DATA_URL, MSG.videoInvalidType),
  prompt: videoPromptSchema,
  mode: z.enum(['standard', 'cinematic'], { error: MSG.selectModel }),
  duration: z.literal(VIDEO_DURATION_SECONDS, { error: `Videos are ${VIDEO_DURATION_SECONDS} seconds long` }).default(VIDEO_DURATION_SECONDS),
  watermark: z.boolean().optional(),
});

export type ProcessVideoRequest = z.infer<typeof processVideoRequestSchema>;

/** Splits a validated data URL into its declared type and bytes' base64 (decoding stays server-side). */
export function parseImageDataUrl(dataUrl: string): { mimeType: 'image/jpeg' | 'image/png'; base64: string } | null {
  const m = /^data:(image\/(?:jpeg|png));base64,(.*)$/.exec(dataUrl);
  return m ? { mimeType: m[1] as 'image/jpeg' | 'image/png', base64: m[2] } : null;
}
