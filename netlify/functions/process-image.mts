import type { Config } from '@netlify/functions';
import { HttpError, isMultipart, json, parseWith, readJson, readMultipart, requireMethod, withErrors } from '../lib/http';
import { discardUpload, processImage, readUpload } from '../lib/tool';
import { restoreRequestSchema } from '../../src/lib/tool/image-schema';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { MSG } from '../../src/lib/messages';
import { FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';

// POST /api/process-image — restores and colorizes a photo.
//  • multipart/form-data: file, model, prompt (files up to the 6 MB function body limit);
//  • application/json: { uploadId, model, prompt } after the browser PUT the file (≤ 15 MB) to the signed
//    upload /api/tool-uploads handed out.
// Answers { success, transformationId, ownerSecret, originalUrl, processedUrl, hints, error }; processedUrl is the
// watermarked preview, the clean file is only downloadable after purchase; ownerSecret is told only here (the
// browser keeps it: the item's other endpoints and its checkout need it).
// The client's allowance is counted first, before the upload is read, inspected (header only) or decoded.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  await enforceToolLimit('image', context);
  if (isMultipart(req)) {
    const form = await readMultipart(req, FUNCTION_BODY_MAX_BYTES);
    const file = form.get('file');
    if (!(file instanceof Blob) || file.size === 0) throw new HttpError(400, MSG.uploadFirst);
    const options = parseWith(restoreRequestSchema, { model: form.get('model') ?? undefined, prompt: form.get('prompt') ?? undefined });
    return json(await processImage(Buffer.from(await file.arrayBuffer()), options));
  }
  const input = (await readJson(req)) as Record<string, unknown> | null;
  const uploadId = typeof input?.uploadId === 'string' ? input.uploadId : undefined;
  if (!uploadId) throw new HttpError(400, MSG.uploadFirst);
  const options = parseWith(restoreRequestSchema, { model: input?.model, prompt: input?.prompt });
  const bytes = await readUpload(uploadId);
  try {
    return json(await processImage(bytes, options));
  } finally {
    await discardUpload(uploadId);
  }
}, { accepts: ['json', 'multipart'] });

export const config: Config = { path: '/api/process-image' };
