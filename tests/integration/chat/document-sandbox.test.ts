import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import StreamZip from 'node-stream-zip';
import { afterAll, describe, expect, it } from 'vitest';
import { readInSandbox, withReadingSlot } from '../../../netlify/lib/chat/document-sandbox';
import { DOCUMENT_ERRORS } from '../../../src/lib/chat/errors';
import { bundleForDeploy } from '../../../scripts/platform/functions/deploy-bundles';
import { makeDoc, makeDocx, makeLoopingDoc, makePdf, makeXlsx } from '../../support/documents';

// The document sandbox (netlify/lib/chat/document-sandbox.ts): each document read in a worker thread that is
// ended past its time or memory, whatever the reader does. The readers that misbehave here are tiny modules
// handed to the sandbox as its worker; the real readers run from the function as Netlify bundles it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** A worker module that says it has started, as the sandbox's own does, then runs `code`. */
const module = (code: string) =>
  new URL(`data:text/javascript,${encodeURIComponent(`import { parentPort } from 'node:worker_threads'; parentPort.postMessage('started'); ${code}`)}`);
/** Worker threads alive in this process (the diagnostic report lists each one). */
const liveWorkers = () => (process.report.getReport() as unknown as { workers: unknown[] }).workers.length;
const empty = new Uint8Array(8);

describe('the document sandbox', () => {
  it('ends a reader that loops without ever yielding, at the deadline, and answers once the thread is gone', async () => {
    expect(liveWorkers()).toBe(0);
    const result = await readInSandbox({ filename: 'report.txt', mimeType: 'text/plain', bytes: empty }, { maxChars: 1_000, budgetMs: 1_500, entry: module('for (;;) {}') });
    expect(result).toMatchObject({ ok: false, message: DOCUMENT_ERRORS.timedOut('report.txt', 1_500), stopped: 'time' });
    expect(result.readMs).toBeGreaterThanOrEqual(1_500);
    expect(liveWorkers()).toBe(0);
  });

  it('ends a reader that fills memory outside its heap (buffers), before the process grows past the watchdog’s limit', async () => {
    const result = await readInSandbox({ filename: 'sheet.xlsx', mimeType: '', bytes: empty }, { maxChars: 1_000, budgetMs: 60_000, entry: module('const keep = []; for (;;) keep.push(Buffer.alloc(1 << 24, 1));') });
    expect(result).toMatchObject({ ok: false, message: DOCUMENT_ERRORS.tooMuchMemory('sheet.xlsx'), stopped: 'memory' });
    expect(liveWorkers()).toBe(0);
  });

  it('ends a reader that fills its heap', async () => {
    const result = await readInSandbox({ filename: 'notes.docx', mimeType: '', bytes: empty }, { maxChars: 1_000, budgetMs: 60_000, entry: module('const keep = []; for (;;) keep.push(new Array(1 << 20).fill(1.5));') });
    expect(result).toMatchObject({ ok: false, stopped: 'memory' });
    expect(liveWorkers()).toBe(0);
  });

  it('ends the reading when the visitor goes away', async () => {
    const gone = new AbortController();
    const reading = readInSandbox({ filename: 'report.txt', mimeType: '', bytes: empty }, { maxChars: 1_000, budgetMs: 60_000, signal: gone.signal, entry: module('for (;;) {}') });
    await new Promise((resolve) => setTimeout(resolve, 0));
    gone.abort();
    expect(await reading).toMatchObject({ ok: false, stopped: 'time' });
    expect(liveWorkers()).toBe(0);
  });

  it('says a reader that crashed could not read the file, naming its format', async () => {
    const result = await readInSandbox({ filename: 'plan.pdf', mimeType: '', bytes: empty }, { maxChars: 1_000, budgetMs: 60_000, entry: module('throw new Error("boom")') });
    expect(result).toMatchObject({ ok: false, message: DOCUMENT_ERRORS.unreadable('plan.pdf', 'PDF') });
  });

  it('reads one request’s documents at a time in a process: the next waits for the slot', async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = withReadingSlot(async () => {
      order.push('first in');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first out');
    });
    const second = withReadingSlot(async () => order.push('second in'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });
});

describe('the sandbox’s worker from the function as a Netlify deploy ships it', () => {
  let dir: string | undefined;
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('reads a PDF, a .docx, an .xlsx and a .doc with the bundled code and the packages shipped beside it, and refuses the looping .doc', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'lumora-chat-bundle-'));
    const [bundle] = await bundleForDeploy(root, path.join(dir, 'zips'), ['chat']);
    const unzipped = path.join(dir, 'function');
    const zip = new StreamZip.async({ file: bundle!.zipPath });
    await zip.extract(null, unzipped);
    await zip.close();
    // The bundle is one file: this module's code is inside it, and the packages are in the archive's node_modules.
    const entry = pathToFileURL(path.join(unzipped, 'netlify/functions/chat.mjs'));
    const cases: Array<[string, Buffer, string]> = [
      ['plan.pdf', makePdf(['Quarterly plan', 'Second page']), '[Page 2]\nSecond page'],
      ['letter.docx', await makeDocx(['Dear customer,', 'Delivery on 3 May.']), 'Delivery on 3 May.'],
      ['sales.xlsx', await makeXlsx({ Q1: [['month', 'revenue'], ['Feb', 135]] }), 'Feb\t135'],
      ['memo.doc', makeDoc('A memo from 1999'), 'A memo from 1999'],
    ];
    for (const [name, bytes, expected] of cases) {
      const result = await readInSandbox({ filename: name, mimeType: '', bytes }, { maxChars: 60_000, budgetMs: 60_000, entry });
      expect(result, name).toMatchObject({ ok: true });
      expect((result as { text: string }).text, name).toContain(expected);
    }
    expect(await readInSandbox({ filename: 'old.doc', mimeType: '', bytes: makeLoopingDoc() }, { maxChars: 60_000, budgetMs: 60_000, entry })).toMatchObject({
      ok: false,
      message: DOCUMENT_ERRORS.unreadable('old.doc', 'Word 97–2003'),
    });
    expect(liveWorkers()).toBe(0);
  });
});
