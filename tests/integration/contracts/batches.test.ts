import { describe, expect, it } from 'vitest';
import batches from '../../../netlify/functions/batches.mts';
import { dispatchAndRun, inlineJobs } from '../../../netlify/lib/batches';
import { doneAnswerSchema } from '../../../src/lib/api-answer';
import { OWNER_SECRET_HEADER } from '../../../src/lib/tool/ownership';
import { batchAnswerSchema, batchCreatedSchema, batchItemAddedSchema, batchRequestSchema, type BatchAnswer } from '../../../src/lib/tool/batch';
import { DEFAULT_IMAGE_PROMPT } from '../../../src/lib/tool/constants';
import { BASE, greyPhoto, multipart } from '../../support/tool-helpers';
import { useInlineBatchPlatform } from '../packages/helpers';
import { generatedPictures, makeScan } from '../../support/scans';
import { answerOf, refusalOf } from './helpers';

// The batches' contract (src/lib/tool/batch.ts): what the image tab's batch reads, from the real function, its jobs run
// in this process (useInlineBatchPlatform says why).
useInlineBatchPlatform();

const call = (path: string, headers: Record<string, string>, init: { body?: BodyInit; json?: unknown } = {}) =>
  batches(new Request(`${BASE}${path}`, {
    method: init.body || init.json ? 'POST' : 'GET',
    headers: { ...headers, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  }), { ip: '192.0.2.76' } as never);

describe('the batches’ answers match the schemas the image tab reads them with', () => {
  it('made without a package, a photo and a scan of prints added, the scan kept whole, followed to the end', async () => {
    const made = await answerOf(batchCreatedSchema, await call('/api/batches', {}, { json: batchRequestSchema.parse({ model: 'sd-xl', prompt: DEFAULT_IMAGE_PROMPT }) }));
    expect(made.ownerSecret).toEqual(expect.any(String));
    const own = { [OWNER_SECRET_HEADER]: made.ownerSecret! };
    const path = `/api/batches/${made.batchId}`;

    const added = await answerOf(batchItemAddedSchema, await call(`${path}/items`, own, { body: multipart({ file: { name: 'grandma.png', type: 'image/png', bytes: await greyPhoto() }, name: 'grandma.png' }) }));
    expect(added.item.name).toBe('grandma.png');
    const { jpeg } = await makeScan(7501, generatedPictures(7501, 2), { kind: 'split', bed: 'white', prints: 2, dpi: 100 });
    const scan = await answerOf(batchItemAddedSchema, await call(`${path}/items`, own, { body: multipart({ file: { name: 'scan.jpg', type: 'image/jpeg', bytes: jpeg }, name: 'scan.jpg' }) }));
    expect(scan.item.status).toBe('choosing');
    const choosing = await answerOf(batchAnswerSchema, await call(path, own));
    expect(choosing.items.find((i) => i.id === scan.item.id)?.split?.prints).toHaveLength(2);
    await answerOf(doneAnswerSchema, await call(`${path}/items/${scan.item.id}/split`, own, { json: { keep: 'whole' } }));

    let answer: BatchAnswer;
    for (;;) {
      while (inlineJobs.size) await Promise.all(inlineJobs);
      answer = await answerOf(batchAnswerSchema, await call(path, own));
      if (answer.counts.waiting + answer.counts.working === 0) break;
      await dispatchAndRun();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer.items.filter((i) => i.status === 'done' && i.transformationId).map((i) => i.id).sort()).toEqual([added.item.id, scan.item.id].sort());
    expect(answer.zip).toEqual([]);

    // Retrying a photo that did not fail, and a batch without its secret: the refusals' shape.
    await refusalOf(await call(`${path}/items/${added.item.id}/retry`, own, { json: {} }), 409);
    await refusalOf(await call(path, {}), 404);
  });
});
