import { z } from '../zod';
import { MSG } from '../messages';
import { PROMPT_MAX, PROMPT_MIN } from './constants';
import { JOB_STATUSES } from './status-schema';
import { DEFAULT_VIDEO_RESOLUTION, VIDEO_DURATION_SECONDS, VIDEO_OPTION_NAMES, VIDEO_RESOLUTIONS, type VideoResolution } from './video-modes';

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

/** At most this many boxes travel from the tab's defaults to the job (the detector's best first). */
export const MAX_DETECTED_SUBJECTS = 20;

/** A share of the photo's width or height. */
const share = z.number().min(0).max(1);

/**
 * What the object detector found on the chosen photo (`/api/video-defaults`), its box in shares of the upright
 * photo's width and height. The video function cannot ship the detector beside ffmpeg, so the tab sends the boxes
 * back with the job; they only guide where the clip's subject layer is cut, so a client's own boxes change only
 * its own clip. The label is one of the detector's COCO classes (unknown ones are dropped on the server).
 */
export const detectedSubjectSchema = z
  .object({
    label: z.string().min(1).max(32),
    score: share,
    box: z.object({ x: share, y: share, width: share, height: share }),
  })
  .refine((s) => s.box.x + s.box.width <= 1.001 && s.box.y + s.box.height <= 1.001, MSG.videoSubjects);
export type DetectedSubject = z.infer<typeof detectedSubjectSchema>;
const detectedSubjects = z.array(detectedSubjectSchema, { error: MSG.videoSubjects }).max(MAX_DETECTED_SUBJECTS, MSG.videoSubjects);

export const processVideoRequestSchema = z.object({
  imageData: z
    .string({ error: MSG.videoInvalidType })
    .regex(DATA_URL, MSG.videoInvalidType),
  prompt: videoPromptSchema,
  mode: z.enum(['standard', 'cinematic'], { error: MSG.selectModel }),
  resolution: videoResolutionSchema.default(DEFAULT_VIDEO_RESOLUTION),
  duration: z.literal(VIDEO_DURATION_SECONDS, { error: `Videos are ${VIDEO_DURATION_SECONDS} seconds long` }).default(VIDEO_DURATION_SECONDS),
  watermark: z.boolean().optional(),
  /**
   * "Restore & colorize first": the clip is made from the image engine's restoration of the photo. Left out, the
   * server decides from the photo (on for one that looks old: grey, sepia or faded).
   */
  restoreFirst: z.boolean({ error: MSG.videoOption(VIDEO_OPTION_NAMES.restoreFirst) }).optional(),
  /** "Bring faces to life": a frontal face found large enough turns a little and blinks. Left out: on. */
  animateFaces: z.boolean({ error: MSG.videoOption(VIDEO_OPTION_NAMES.animateFaces) }).optional(),
  /** The detector's boxes from the tab's defaults for this photo; left out, the job looks by faces and saliency alone. */
  subjects: detectedSubjects.optional(),
});

/** "Animate this photo" from a finished image result: its restored, colorized file is the clip's still. */
const fromImageId = z.uuid({ error: MSG.videoSourceImage });
export const animateImageRequestSchema = processVideoRequestSchema.omit({ imageData: true, restoreFirst: true }).extend({ fromImageId });

/** The tab's defaults for "Animate this photo": judged on the finished image result's own restored file. */
export const videoDefaultsFromImageSchema = z.object({ fromImageId });

export type ProcessVideoRequest = z.infer<typeof processVideoRequestSchema>;

/** process-video's answer (202): the queued job and its owner secret (./ownership.ts), told only here. */
export const videoJobAnswerSchema = z.object({
  success: z.literal(true),
  transformationId: z.string().min(1),
  status: z.enum(JOB_STATUSES),
  ownerSecret: z.string().optional(),
  error: z.null(),
});
export type VideoJobAnswer = z.infer<typeof videoJobAnswerSchema>;

/** What the video tab offers before a job, as the server judged the photo (POST /api/video-defaults). */
export const videoDefaultsSchema = z.object({
  success: z.literal(true),
  restoreFirst: z.boolean(),
  /** Why: 'greyscale', 'sepia', 'faded' (on) or 'colour' (off). */
  restoreReason: z.enum(['greyscale', 'sepia', 'faded', 'colour']),
  animateFaces: z.boolean(),
  /** Faces found facing the camera. */
  faces: z.number().int().min(0),
  /** The detector's boxes (empty where this deployment does not ship it); the tab sends them with the job. */
  subjects: detectedSubjects,
});
export type VideoDefaults = z.infer<typeof videoDefaultsSchema>;

/** A job's options as stored in its hints: null where the buyer left the choice to the server (resolved by the job). */
export function jobOptions(hints: Record<string, unknown>): { restoreFirst: boolean | null; animateFaces: boolean | null } {
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : null);
  return { restoreFirst: flag(hints.restoreFirst), animateFaces: flag(hints.animateFaces) };
}

/**
 * The detector's boxes stored with a job; undefined for a job sent without them (or from before they were sent),
 * which then looks for subjects itself where the detector ships.
 */
export function jobSubjects(hints: Record<string, unknown>): DetectedSubject[] | undefined {
  const parsed = detectedSubjects.safeParse(hints.subjects);
  return parsed.success ? parsed.data : undefined;
}

/** A video job's resolution from its stored hints (720p for jobs from before the choice existed). */
export function jobResolution(hints: Record<string, unknown>): VideoResolution {
  return videoResolutionSchema.catch(DEFAULT_VIDEO_RESOLUTION).parse(hints.resolution);
}

/** Splits a validated data URL into its declared type and bytes' base64 (decoding stays server-side). */
export function parseImageDataUrl(dataUrl: string): { mimeType: 'image/jpeg' | 'image/png'; base64: string } | null {
  const m = /^data:(image\/(?:jpeg|png));base64,(.*)$/.exec(dataUrl);
  return m ? { mimeType: m[1] as 'image/jpeg' | 'image/png', base64: m[2] } : null;
}
