import { z } from '../zod';
import { MSG } from '../messages';
import { IMAGE_TYPES, MAX_UPLOAD_BYTES, VIDEO_TYPES } from './constants';

// POST /api/tool-uploads, shared: a signed, single-path upload for a file over the inline limit. No Node imports here.

export const uploadGrantRequestSchema = z
  .object({
    kind: z.enum(['image', 'video']),
    contentType: z.string(),
    size: z.number().int().positive().max(MAX_UPLOAD_BYTES, { error: MSG.uploadTooLarge }),
  })
  .superRefine((v, ctx) => {
    const allowed: readonly string[] = v.kind === 'image' ? IMAGE_TYPES : VIDEO_TYPES;
    if (!allowed.includes(v.contentType)) {
      ctx.addIssue({ code: 'custom', message: v.kind === 'image' ? MSG.imageInvalidType : MSG.videoInvalidType });
    }
  });
export type UploadGrantRequest = z.input<typeof uploadGrantRequestSchema>;

/** Where the browser PUTs the file (the storage adapter's signed upload), and the id to process it by. */
export const uploadGrantSchema = z.object({
  success: z.literal(true),
  uploadId: z.string().min(1),
  upload: z.object({ url: z.string().min(1), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
});
export type UploadGrant = z.infer<typeof uploadGrantSchema>;
