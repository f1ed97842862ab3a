import { beforeEach, describe, expect, it } from 'vitest';
import chatFunction from '../../../netlify/functions/chat.mts';
import { query } from '../../../netlify/lib/db';
import { DOCUMENT_ERRORS } from '../../../src/lib/chat/errors';
import type { ReadDocument } from '../../../src/lib/chat/stream-protocol';
import { MIME, docxParts, makeDoc, makeDocxBomb, makeDocxHidingAnEntry, makeLoopingDoc, makePdf, makePdfWithHugeStream, repeatedDeflate, zipOf } from '../../support/documents';
import { dataUrl, readEvents, validBody } from '../chat/helpers';
import { useChatPlatform } from '../chat/platform';
import { BASE, client } from './helpers';

// The fourth review's crafted documents, each built here, sent to the chat function as a visitor would: every
// one is answered with a clear 400 or read with a cut note, nothing goes upstream or is spent for a refusal,
// no reader is left running after the answer, and the next ordinary request is answered.
const setup = useChatPlatform([]);
// The reading time allowed on a deploy (10 s) is for one request on a function's own core; the suite runs many
// files on two. The time limit itself is tested in tests/integration/chat/document-sandbox.test.ts.
beforeEach(() => {
  process.env.CHAT_DOCUMENT_TIME_LIMIT_MS = '40000';
});

const send = (body: unknown) =>
  chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), client() as never);
const withFile = (filename: string, mime: string, bytes: Buffer) =>
  validBody({ model: 'deepseek/deepseek-chat-v3.1', messages: [{ role: 'user', content: [{ type: 'text', text: `[${filename}] Summarise it` }, { type: 'file', file: { filename, file_data: dataUrl(mime, bytes) } }] }] });
const spent = async () => Number((await query<{ n: string }>('select coalesce(sum(reserved_micros + spent_micros), 0)::bigint as n from chat_spend'))[0]!.n);
/** Worker threads alive in this process: a reader left running after the answer would be one. */
const liveWorkers = () => (process.report.getReport() as unknown as { workers: unknown[] }).workers.length;

async function expectRefused(filename: string, mime: string, bytes: Buffer, message: string) {
  const res = await send(withFile(filename, mime, bytes));
  expect(res.status, filename).toBe(400);
  expect((await res.json()).error, filename).toBe(message);
  expect(setup.fake.requests, filename).toHaveLength(0);
  expect(await spent(), filename).toBe(0);
  expect(liveWorkers(), filename).toBe(0);
}

async function expectServing() {
  const res = await send(validBody({ model: 'deepseek/deepseek-chat-v3.1', messages: [{ role: 'user', content: 'Hello' }] }));
  expect(res.status).toBe(200);
  expect((await readEvents(res)).at(-1)).toEqual({ done: true });
}

describe('chat documents: crafted files are refused or cut, and the function goes on serving', () => {
  it('a 2 KB .doc whose sector chain loops 1 → 2 → 1 (word-extractor would never stop): 400, with the way out', async () => {
    const doc = makeLoopingDoc();
    expect(doc.length).toBe(2048);
    await expectRefused('minutes.doc', MIME.doc, doc, DOCUMENT_ERRORS.unreadable('minutes.doc', 'Word 97–2003'));
    expect(DOCUMENT_ERRORS.unreadable('minutes.doc', 'Word 97–2003')).toMatch(/save it as \.docx/);
    await expectServing();
  });

  let bomb: Buffer | undefined;
  it.each([
    ['report.docx', MIME.docx, 'Word'],
    ['report.doc', MIME.doc, 'Word 97–2003'],
    ['report.xlsx', MIME.xlsx, 'Excel'],
    ['report.pdf', MIME.pdf, 'PDF'],
  ])('a 1 MB .docx declaring 1.6 KB that unpacks to 1 GB, named %s (checked by what it holds, whatever its name): 400', async (name, mime, format) => {
    bomb ??= await makeDocxBomb();
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    await expectRefused(name, mime, bomb, DOCUMENT_ERRORS.unreadable(name, format));
    await expectServing();
  });

  it('an .xlsx with a bomb between its listed entries, which a streaming reader would inflate: 400', async () => {
    const parts = await docxParts(['Looks fine']);
    const hidden = { name: 'xl/worksheets/sheet1.xml', deflated: repeatedDeflate(Buffer.alloc(1024 * 1024), 500), declaredSize: 100, crc: 0, listed: false };
    await expectRefused('sheet.xlsx', MIME.xlsx, zipOf([parts[0]!, hidden, ...parts.slice(1)]), DOCUMENT_ERRORS.unreadable('sheet.xlsx', 'Excel'));
    await expectServing();
  });

  it('a .doc whose directory entries point at each other (word-extractor would recurse through them until its stack overflows): 400', async () => {
    const doc = makeDoc('A memo');
    doc.writeInt32LE(1, 1024 + 2 * 128 + 72); // entry 2's right sibling is entry 1, whose right sibling is entry 2
    await expectRefused('memo.doc', MIME.doc, doc, DOCUMENT_ERRORS.unreadable('memo.doc', 'Word 97–2003'));
    await expectServing();
  });

  it('a .docx whose end record hides its last entry (200 MB inflated): 400', async () => {
    await expectRefused('hidden.docx', MIME.docx, await makeDocxHidingAnEntry(), DOCUMENT_ERRORS.unreadable('hidden.docx', 'Word'));
    await expectServing();
  });

  it('a 300 KB PDF whose one stream inflates to 100 MB: 400, before PDF.js decodes it', async () => {
    await expectRefused('stream.pdf', MIME.pdf, makePdfWithHugeStream(100), DOCUMENT_ERRORS.tooLargeInside('stream.pdf'));
    await expectServing();
  });

  it('an 8,000-page PDF: its first 300 pages are read, the rest cut with a note', async () => {
    const pdf = makePdf(Array.from({ length: 8_000 }, (_, i) => `word${i + 1}`));
    const events = await readEvents(await send(withFile('long.pdf', MIME.pdf, pdf)));
    expect(events.at(-1)).toEqual({ done: true });
    const { text } = (events[0] as { document: ReadDocument }).document;
    expect(text).toContain('[Page 300]\nword300');
    expect(text).not.toContain('word301');
    expect(text).toMatch(/\[… cut after page 300 of 8,000 pages: the chat reads at most 300 pages of a PDF; 7,700 more pages not included\]$/);
    expect(setup.fake.requests).toHaveLength(1);
    expect(liveWorkers()).toBe(0);
    await expectServing();
  });
});
