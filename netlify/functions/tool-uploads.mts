import type { Config } from '@netlify/functions';
import { json, parseWith, readJson, requireMethod, withErrors } from '../lib/http';
import { newUploadId, paths } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { recordUploadGrant } from '../lib/tool/upload-grants';
import { getStorage } from '../lib/storage';
import { uploadGrantRequestSchema, type UploadGrant } from '../../src/lib/tool/upload-schema';

// POST /api/tool-uploads { kind: 'image'|'video', contentType, size } → { success, uploadId, upload: { url, method, headers } }
// A signed, single-path upload for files over the inline limit (up to 15 MB): the browser PUTs the file to
// upload.url, then calls /api/process-image or /api/process-video with { uploadId, … }. The server picks the
// path; the content is validated by its bytes when processed.
// The request and its answer: src/lib/tool/upload-schema.ts.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const { contentType } = parseWith(uploadGrantRequestSchema, await readJson(req));
  await enforceToolLimit('upload', context);
  const uploadId = newUploadId(contentType);
  await recordUploadGrant(uploadId);
  const upload = await getStorage().createSignedUpload(paths.upload(uploadId), contentType);
  const answer: UploadGrant = { success: true, uploadId, upload };
  return json(answer);
});

export const config: Config = { path: '/api/tool-uploads' };
