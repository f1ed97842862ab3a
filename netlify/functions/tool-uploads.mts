import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { json, parseWith, readJson, requireMethod, withErrors } from '../lib/http';
import { newUploadId, paths } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { recordUploadGrant } from '../lib/tool/upload-grants';
import { getStorage, MAX_UPLOAD_BYTES } from '../lib/storage';
import { MSG } from '../../src/lib/messages';

// POST /api/tool-uploads { kind: 'image'|'video', contentType, size } → { success, uploadId, upload: { url, method, headers } }
// A signed, single-path upload for files over the inline limit (up to 15 MB): the browser PUTs the file to
// upload.url, then calls /api/process-image or /api/process-video with { uploadId, … }. The server picks the
// path; the content is validated by its bytes when processed.
const schema = z
  .object({
    kind: z.enum(['image', 'video']),
    contentType: z.string(),
    size: z.number().int().positive().max(MAX_UPLOAD_BYTES, { error: MSG.uploadTooLarge }),
  })
  .superRefine((v, ctx) => {
    const allowed = v.kind === 'image' ? ['image/jpeg', 'image/png', 'image/tiff'] : ['image/jpeg', 'image/png'];
    if (!allowed.includes(v.contentType)) {
      ctx.addIssue({ code: 'custom', message: v.kind === 'image' ? MSG.imageInvalidType : MSG.videoInvalidType });
    }
  });

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const { contentType } = parseWith(schema, await readJson(req));
  await enforceToolLimit('upload', context);
  const uploadId = newUploadId(contentType);
  await recordUploadGrant(uploadId);
  const upload = await getStorage().createSignedUpload(paths.upload(uploadId), contentType);
  return json({ success: true, uploadId, upload });
});

export const config: Config = { path: '/api/tool-uploads' };
