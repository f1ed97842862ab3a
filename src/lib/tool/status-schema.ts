import { z } from '../zod';
import { TOOL_KINDS } from './constants';
import { imageAnswerSchema } from './image-schema';
import { VIDEO_RESOLUTIONS } from './video-modes';

// The answer of GET /api/transformations/{id}, shared: the server builds it through this schema and the
// island reads it as the type inferred from it. No Node imports here.

/** A job's life: queued → processing → completed | failed. */
export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a finished image adds to its status: the fields of process-image's answer. */
const finishedImageFields = imageAnswerSchema.pick({
  originalUrl: true,
  width: true,
  height: true,
  hints: true,
  healMarks: true,
  tone: true,
  reference: true,
}).partial();

export const transformationStatusSchema = z.object({
  ...finishedImageFields.shape,
  /** False once the job failed (`error` says why). */
  success: z.boolean(),
  transformationId: z.string(),
  kind: z.enum(TOOL_KINDS),
  status: z.enum(JOB_STATUSES),
  /** 0..1 */
  progress: z.number().min(0).max(1),
  /** Bought: the download gives the clean file. */
  purchased: z.boolean(),
  /** A video's chosen size (it sets the price). */
  resolution: z.enum(VIDEO_RESOLUTIONS).optional(),
  /** A video made from a restored photo: the watermarked still it was made from (the clip's poster). */
  stillUrl: z.string().nullable().optional(),
  /** A video's "Restore & colorize first", as the job made it (absent until it ran). */
  restoreFirst: z.boolean().optional(),
  /** Signed URLs of the watermarked preview (video or image) and of the original. */
  videoUrl: z.string().nullable(),
  originalImageUrl: z.string().nullable(),
  processedUrl: z.string().nullable(),
  error: z.string().nullable(),
});
export type TransformationStatus = z.infer<typeof transformationStatusSchema>;
