import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { EXTENSIONS, FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';
import { HttpError, isMultipart, json, parseWith, pathAfter, readJson, readMultipart, requireMethod, withErrors } from '../lib/http';
import { addItem, batchAnswer, chooseScan, createBatch, dispatchAndRun, ownedBatch, retryItem, scanPrints } from '../lib/batches';
import { requestAllowance, requestPackageKey } from '../lib/packages/allowance';
import { readUpload, discardUpload, toHttpError } from '../lib/tool';
import { restoreRequestSchema } from '../../src/lib/tool/image-schema';
import { inspectImage } from '../../engines/image';
import { requestProof } from '../lib/tool/ownership';
import { enforceRateLimit } from '../lib/rate-limit';
import { clientId } from '../lib/client-identity';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { BATCH_LIMITS, batchSplitRequestSchema, batchUploadRequestSchema, type BatchCreated, type BatchItemAdded } from '../../src/lib/tool/batch';
import type { DoneAnswer } from '../../src/lib/api-answer';

// Batches of photos (netlify/lib/batches). A package's batch is reached with its key (`x-package-key`); one made
// without a package with the secret handed when it was made (`x-owner-secret`), as items are.
//  • POST /api/batches { model, prompt } → { success, batchId, ownerSecret? }
//  • GET  /api/batches/{id} → { success, batchId, items: [{ id, name, status, error, transformationId, taken, note,
//    downloadUrl }], counts, zip: [{ part, count, bytes, url }] }
//  • POST /api/batches/{id}/items — multipart `file` (≤ 4 MB inline) or JSON { uploadId, name } after a signed upload:
//    the photo is checked from its header, stored and queued → { success, item }. A package's batch takes at most
//    what it has left (409), one without a package BATCH_LIMITS.withoutPackage photos, each counted as a restoration.
//    A scan of several prints comes back `choosing`, its prints `held` beside it (nothing runs yet).
//  • POST /api/batches/{id}/items/{item}/retry → a failed photo back in the queue.
//  • POST /api/batches/{id}/items/{item}/split { keep: 'prints' | 'whole' } → the buyer's choice for such a scan.
// The requests and answers: src/lib/tool/batch.ts.
const done: DoneAnswer = { success: true };
const nameOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 255) : 'photo');

export default withErrors(async (req: Request, context: unknown) => {
  const [id = '', part, itemId, action] = pathAfter(req, '/api/batches/').split('/');
  if (!id) {
    requireMethod(req, 'POST');
    const options = parseWith(restoreRequestSchema, await readJson(req));
    const allowance = requestPackageKey(req) ? await requestAllowance(req) : null;
    const made = await createBatch({ allowance, ...options });
    const answer: BatchCreated = { success: true, batchId: made.batch.id, ...(made.ownerSecret && { ownerSecret: made.ownerSecret }) };
    return json(answer);
  }
  const batch = await ownedBatch(id, await requestProof(req));
  if (!part) {
    requireMethod(req, 'GET');
    return json(await batchAnswer(batch), 200, { 'Cache-Control': 'no-store' });
  }
  if (part === 'items' && itemId && action === 'retry') {
    requireMethod(req, 'POST');
    await retryItem(batch, itemId);
    await dispatchAndRun();
    return json(done);
  }
  if (part === 'items' && itemId && action === 'split') {
    requireMethod(req, 'POST');
    await chooseScan(batch, itemId, parseWith(batchSplitRequestSchema, await readJson(req)).keep);
    await dispatchAndRun();
    return json(done);
  }
  if (part !== 'items' || itemId) throw new HttpError(404, MSG.batchNotFound);
  requireMethod(req, 'POST');
  // Counted before the upload is read: a package's uploads per client, or (without one) each photo as a restoration.
  if (batch.allowanceId) await enforceRateLimit({ key: `tool:batch:${clientId(context)}`, max: BATCH_LIMITS.uploadsPer10Minutes, windowSeconds: 600 }, { message: MSG.tooManyRequests });
  else await enforceToolLimit('image', context);
  let bytes: Buffer;
  let name: string;
  let uploadId: string | undefined;
  if (isMultipart(req)) {
    const form = await readMultipart(req, FUNCTION_BODY_MAX_BYTES);
    const file = form.get('file');
    if (!(file instanceof Blob) || file.size === 0) throw new HttpError(400, MSG.uploadFirst);
    bytes = Buffer.from(await file.arrayBuffer());
    name = nameOf(form.get('name') ?? (file as File).name);
  } else {
    const input = parseWith(batchUploadRequestSchema, await readJson(req));
    uploadId = input.uploadId;
    bytes = await readUpload(input.uploadId);
    name = input.name;
  }
  try {
    let format: 'jpeg' | 'png' | 'tiff';
    let size: { width: number; height: number };
    try {
      ({ format, ...size } = await inspectImage(bytes, ['jpeg', 'png', 'tiff']));
    } catch (error) {
      throw toHttpError(error);
    }
    const contentType = `image/${format}`;
    // A flatbed scan of several prints is split here, before anything is spent; the buyer then chooses.
    let scan: Awaited<ReturnType<typeof scanPrints>>;
    try {
      scan = await scanPrints(bytes, size);
    } catch (error) {
      throw toHttpError(error);
    }
    const item = await addItem(batch, { bytes, name, ext: EXTENSIONS[contentType]!, contentType }, scan);
    await dispatchAndRun();
    const added: BatchItemAdded = { success: true, item: { id: item.id, position: item.position, name: item.name, status: item.status } };
    return json(added);
  } finally {
    if (uploadId) await discardUpload(uploadId);
  }
}, { accepts: ['json', 'multipart'] });

export const config: Config = { path: ['/api/batches', '/api/batches/:id', '/api/batches/:id/items', '/api/batches/:id/items/:item/retry', '/api/batches/:id/items/:item/split'] };
