import type { Agent } from '../../../src/lib/chat/agents';
import { systemPrompt } from '../../../src/lib/chat/agents';
import { classifyAttachment, documentPreamble, parseDataUrl } from '../../../src/lib/chat/attachments';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import { countedChars, type ChatContentPart, type ChatRequestMessage } from '../../../src/lib/chat/schema';
import type { ReadDocument } from '../../../src/lib/chat/stream-protocol';
import { DOCUMENT_ERRORS, readDocument } from './documents';

/** OpenAI chat-completions message shapes we send. */
export type UpstreamPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail: 'high' } };

export interface UpstreamMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | UpstreamPart[];
}

/**
 * Reads every attached document of the request into text (a `document` part in its place), within what
 * is left of the conversation's character cap. `read` lists the documents read now, for the stream's
 * `document` events. Refuses with the reason when one cannot be read.
 */
export async function readAttachedDocuments(
  messages: ChatRequestMessage[],
): Promise<{ ok: true; messages: ChatRequestMessage[]; read: ReadDocument[] } | { ok: false; message: string }> {
  const read: ReadDocument[] = [];
  let room = CHAT_LIMITS.maxTotalChars - messages.reduce((n, m) => n + countedChars(m.content), 0);
  const out: ChatRequestMessage[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') {
      out.push(m);
      continue;
    }
    const parts: ChatContentPart[] = [];
    for (const part of m.content) {
      if (part.type !== 'file') {
        parts.push(part);
        continue;
      }
      const { filename, file_data } = part.file;
      const parsed = parseDataUrl(file_data);
      const kind = classifyAttachment(filename, parsed?.mimeType);
      if (kind === 'image') {
        parts.push(part);
        continue;
      }
      if (kind === 'other') return { ok: false, message: DOCUMENT_ERRORS.unsupported(filename) };
      // A text file's size is already counted by the schema; give it its own room back.
      const own = countedChars([part]);
      const limit = Math.max(1_000, Math.min(CHAT_LIMITS.maxDocumentChars, room + own));
      const result = await readDocument(filename, parsed?.mimeType ?? '', parsed?.base64 ?? '', limit);
      if (!result.ok) return result;
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
  if (vision && parseDataUrl(url)?.base64) return { type: 'image_url', image_url: { url, detail: 'high' } };
  return {
    type: 'text',
    text: `[The user uploaded a file ("${name}") that this model cannot process. Let them know, and suggest a vision-capable model if they need the image analysed.]`,
  };
}
