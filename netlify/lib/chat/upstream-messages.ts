import { Buffer } from 'node:buffer';
import type { Agent } from '../../../src/lib/chat/agents';
import { systemPrompt } from '../../../src/lib/chat/agents';
import { classifyAttachment, documentPreamble, imageNotSentNote, parseDataUrl } from '../../../src/lib/chat/attachments';
import { DOCUMENT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_LIMITS, DOCUMENT_LIMITS } from '../../../src/lib/chat/request-limits';
import { countedChars, sendsImage, type ChatContentPart, type ChatRequestMessage } from '../../../src/lib/chat/schema';
import type { ReadDocument } from '../../../src/lib/chat/stream-protocol';
import { readInSandbox, withReadingSlot } from './document-sandbox';

/** OpenAI chat-completions message shapes we send. */
export type UpstreamPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail: 'high' } };

export interface UpstreamMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | UpstreamPart[];
}

export type ReadDocuments =
  | { ok: true; messages: ChatRequestMessage[]; read: ReadDocument[] }
  | { ok: false; status: 400 | 503; message: string };

const isDocumentFile = (part: ChatContentPart) => part.type === 'file' && classifyAttachment(part.file.filename, parseDataUrl(part.file.file_data)?.mimeType) !== 'image';

/**
 * Reads every attached document of the request into text (a `document` part in its place), within what
 * is left of the conversation's character cap: each in the document sandbox, all of them within
 * `timeLimitMs` of reading (CHAT_DOCUMENT_TIME_LIMIT_MS, 10 s by default), holding the process's reading slot, stopped if the visitor goes away (`signal`). `read` lists the documents read now, for
 * the stream's `document` events. Refuses with the reason (400) when one cannot be read, or 503 when the
 * slot stayed taken.
 */
export async function readAttachedDocuments(
  messages: ChatRequestMessage[],
  { timeLimitMs = DOCUMENT_LIMITS.readTimeMs, signal }: { timeLimitMs?: number; signal?: AbortSignal } = {},
): Promise<ReadDocuments> {
  if (!messages.some((m) => typeof m.content !== 'string' && m.content.some(isDocumentFile))) return { ok: true, messages, read: [] };
  const done = await withReadingSlot(() => readAll(messages, timeLimitMs, signal));
  return done ?? { ok: false, status: 503, message: DOCUMENT_ERRORS.busy };
}

async function readAll(messages: ChatRequestMessage[], timeLimitMs: number, signal?: AbortSignal): Promise<ReadDocuments> {
  const read: ReadDocument[] = [];
  let budgetMs = timeLimitMs;
  let room = CHAT_LIMITS.maxTotalChars - messages.reduce((n, m) => n + countedChars(m.content), 0);
  const out: ChatRequestMessage[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') {
      out.push(m);
      continue;
    }
    const parts: ChatContentPart[] = [];
    for (const part of m.content) {
      if (part.type !== 'file' || !isDocumentFile(part)) {
        parts.push(part);
        continue;
      }
      const { filename, file_data } = part.file;
      const parsed = parseDataUrl(file_data);
      if (classifyAttachment(filename, parsed?.mimeType) === 'other') return { ok: false, status: 400, message: DOCUMENT_ERRORS.unsupported(filename) };
      // A text file's size is already counted by the schema; give it its own room back.
      const own = countedChars([part]);
      const limit = Math.max(1_000, Math.min(CHAT_LIMITS.maxDocumentChars, room + own));
      const bytes = Buffer.from(parsed?.base64 ?? '', 'base64');
      const result = await readInSandbox({ filename, mimeType: parsed?.mimeType ?? '', bytes }, { maxChars: limit, budgetMs, timeLimitMs, signal });
      budgetMs -= result.readMs;
      if (!result.ok) return { ok: false, status: 400, message: result.message };
      room -= result.text.length - own;
      read.push({ filename, text: result.text });
      parts.push({ type: 'document', document: { filename, text: result.text } });
    }
    out.push({ ...m, content: parts });
  }
  return { ok: true, messages: out, read };
}

/**
 * The messages sent upstream: the agent's system message (always the server's), then the visitor's
 * messages with attachments turned into what the chosen model can take.
 */
export function buildUpstreamMessages(agent: Agent, vision: boolean, messages: ChatRequestMessage[]): UpstreamMessage[] {
  return [
    { role: 'system', content: systemPrompt(agent) },
    ...messages.map((m): UpstreamMessage => {
      if (typeof m.content === 'string') return { role: m.role, content: m.content };
      const parts = m.content.map((part) => convertPart(part, vision));
      // Text-only content goes as one string: every provider accepts that form.
      return parts.every((p) => p.type === 'text')
        ? { role: m.role, content: parts.map((p) => (p as { text: string }).text).join('\n\n') }
        : { role: m.role, content: parts };
    }),
  ];
}

function convertPart(part: ChatContentPart, vision: boolean): UpstreamPart {
  if (part.type === 'text') return part;
  if (part.type === 'document') return { type: 'text', text: `${documentPreamble(part.document.filename)}\n\n${part.document.text}` };
  if (part.type === 'image_url') return imagePart(part.image_url.url, 'image', vision);
  // Documents were read before (readAttachedDocuments): what is left of the files are images.
  return imagePart(part.file.file_data, part.file.filename, vision);
}

function imagePart(url: string, name: string, vision: boolean): UpstreamPart {
  if (sendsImage(url, vision)) return { type: 'image_url', image_url: { url, detail: 'high' } };
  return { type: 'text', text: imageNotSentNote(name) };
}
