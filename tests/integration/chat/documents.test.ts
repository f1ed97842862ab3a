import { beforeEach, describe, expect, it } from 'vitest';
import { useFakeProvider } from './platform';
import { MIME, makeDoc, makeDocx, makePdf, makeXlsx } from '../../support/documents';
import { createChatHandler } from '../../../netlify/lib/chat/handler';
import { readChatConfig } from '../../../netlify/lib/chat/config';
import { createCatalogue } from '../../../netlify/lib/chat/catalogue';
import { MemorySpendStore } from '../../../netlify/lib/chat/spend';
import { MemoryRateLimiter } from '../../../netlify/lib/rate-limit';
import { requestMessages, type ConversationMessage } from '../../../src/lib/chat/conversation';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import type { ReadDocument } from '../../../src/lib/chat/stream-protocol';
import { chatRequest, dataUrl, readEvents, validBody } from './helpers';

// Documents are read on the server (PDF, Word, Excel) for every model, and their text stays in the conversation.
const provider = useFakeProvider();
// The reading time allowed on a deploy (10 s) is for one request on a function's own core; the suite runs many
// files on two. The time limit itself is tested in document-sandbox.test.ts.
beforeEach(() => {
  process.env.CHAT_DOCUMENT_TIME_LIMIT_MS = '40000';
});

function handler() {
  const limiter = new MemoryRateLimiter();
  const catalogue = createCatalogue({ store: null, warn: () => {} });
  const spend = new MemorySpendStore();
  return { spend, h: createChatHandler({ config: () => readChatConfig(), limiter: () => limiter, catalogue: () => catalogue, spend: () => spend, log: () => {} }) };
}

const withFile = (filename: string, mime: string, bytes: Buffer, model = 'deepseek/deepseek-chat-v3.1') =>
  validBody({ model, messages: [{ role: 'user', content: [{ type: 'text', text: `[${filename}] Summarise it` }, { type: 'file', file: { filename, file_data: dataUrl(mime, bytes) } }] }] });

const tenPages = Array.from({ length: 10 }, (_, i) => `Page ${i + 1} of the plan\nRevenue line ${1000 + i}`);

describe('documents read on the server', () => {
  it('reads a 10-page PDF, a DOCX and an XLSX into text the model receives, and sends the text back to keep', async () => {
    const { h } = handler();
    const cases = [
      { name: 'plan.pdf', mime: MIME.pdf, bytes: makePdf(tenPages), expect: ['Page 1 of the plan', 'Revenue line 1009', '[Page 10]'] },
      { name: 'letter.docx', mime: MIME.docx, bytes: await makeDocx(['Dear customer,', 'The delivery is on 3 May.']), expect: ['Dear customer,', 'The delivery is on 3 May.'] },
      { name: 'sales.xlsx', mime: MIME.xlsx, bytes: await makeXlsx({ Q1: [['month', 'revenue'], ['Jan', 120], ['Feb', 135]], Notes: [['fine']] }), expect: ['[Sheet "Q1"]', 'Feb\t135', '[Sheet "Notes"]'] },
      { name: 'memo.doc', mime: MIME.doc, bytes: makeDoc('A memo from 1999: the server moves on Friday.'), expect: ['A memo from 1999: the server moves on Friday.'] },
    ];
    for (const [i, c] of cases.entries()) {
      const events = await readEvents(await h(chatRequest(withFile(c.name, c.mime, c.bytes))));
      expect(events.at(-1), c.name).toEqual({ done: true });
      const sent = provider.fake.requests[i]!.body.messages[1].content as string;
      expect(sent).toContain(`Contents of the attached file "${c.name}":`);
      for (const text of c.expect) expect(sent, c.name).toContain(text);
      expect(sent).not.toContain(c.bytes.toString('base64').slice(0, 40));
      const doc = events[0] as { document: ReadDocument };
      expect(doc.document.filename).toBe(c.name);
      for (const text of c.expect) expect(doc.document.text).toContain(text);
    }
  });

  it('a follow-up question in the same conversation still carries the document text', async () => {
    const { h } = handler();
    const first = await readEvents(await h(chatRequest(withFile('plan.pdf', MIME.pdf, makePdf(tenPages)))));
    const document = (first[0] as { document: ReadDocument }).document;
    // The island's history: the question with the text the server read, then the reply.
    const history: ConversationMessage[] = [
      { role: 'user', content: '[plan.pdf] Summarise it', timestamp: 1, documents: [document] },
      { role: 'assistant', content: 'A ten-page plan.', timestamp: 2 },
    ];
    const messages = requestMessages(history, { text: 'What is on page 7?' });
    const res = await h(chatRequest(validBody({ model: 'deepseek/deepseek-chat-v3.1', messages })));
    expect((await readEvents(res)).at(-1)).toEqual({ done: true });
    const followUp = provider.fake.requests[1]!.body.messages;
    expect(followUp.at(-1)).toEqual({ role: 'user', content: 'What is on page 7?' });
    expect(followUp[1].content).toContain('Revenue line 1006');
    expect(followUp[1].content).toContain('Contents of the attached file "plan.pdf":');
  });

  it('cuts a long document within the cap and says where', async () => {
    const { h } = handler();
    const long = Array.from({ length: 80 }, (_, i) => Array.from({ length: 40 }, (_, j) => `Page ${i + 1} line ${j + 1} of a long report`).join('\n'));
    const events = await readEvents(await h(chatRequest(withFile('long.pdf', MIME.pdf, makePdf(long)))));
    const text = (events[0] as { document: ReadDocument }).document.text;
    expect(text.length).toBeLessThanOrEqual(CHAT_LIMITS.maxDocumentChars + 200);
    expect(text).toMatch(/\[… cut here in page \d+ of 80 pages: the text is limited to 60,000 characters; \d+ more pages not included\]$/);
    expect(provider.fake.requests[0]!.body.messages[1].content).toContain('[… cut here');
  });

  it('reads a large workbook only as far as the cap, and says what was left', async () => {
    const { h } = handler();
    const rows = Array.from({ length: 20_000 }, (_, i) => [i, `customer ${i}`, i * 3.5]);
    const events = await readEvents(await h(chatRequest(withFile('ledger.xlsx', MIME.xlsx, await makeXlsx({ Ledger: rows, Notes: [['fine']] })))));
    const text = (events[0] as { document: ReadDocument }).document.text;
    expect(text.startsWith('[Sheet "Ledger"]\n0\tcustomer 0\t0\n1\tcustomer 1\t3.5')).toBe(true);
    expect(text).toMatch(/\[… cut here in sheet "Ledger" of 2 sheets: the text is limited to 60,000 characters; 1 more sheet not included\]$/);
  });

  it.each([
    ['an encrypted PDF', 'secret.pdf', MIME.pdf, () => makePdf(tenPages, { encrypted: true }), /"secret\.pdf" is password-protected/],
    ['a corrupt PDF', 'broken.pdf', MIME.pdf, () => Buffer.from('%PDF-1.7 not really'), /"broken\.pdf" could not be read as a PDF file/],
    ['a corrupt DOCX', 'broken.docx', MIME.docx, () => Buffer.from('PK\u0003\u0004 nope'), /"broken\.docx" could not be read as a Word file/],
    ['a legacy .doc that is not one', 'old.doc', MIME.doc, () => Buffer.from('not a word file'), /"old\.doc" could not be read as a Word 97–2003 file/],
    ['a PDF without text', 'scan.pdf', MIME.pdf, () => makePdf(['']), /"scan\.pdf" has no text to read/],
  ])('refuses %s with a clear message; nothing is sent or spent', async (_name, filename, mime, bytes, message) => {
    const { h, spend } = handler();
    const res = await h(chatRequest(withFile(filename, mime, bytes())));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(message);
    expect(provider.fake.requests).toHaveLength(0);
    expect(await spend.today()).toMatchObject({ spentMicros: 0, reservedMicros: 0 });
  });
});
