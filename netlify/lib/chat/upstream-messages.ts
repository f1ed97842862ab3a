import { Buffer } from 'node:buffer';
import type { Agent } from '../../../src/lib/chat/agents';
import { systemPrompt } from '../../../src/lib/chat/agents';
import { classifyAttachment, parseDataUrl } from '../../../src/lib/chat/attachments';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import { isVisionModel } from '../../../src/lib/chat/models';
import type { ChatContentPart, ChatRequestMessage } from '../../../src/lib/chat/schema';

/** OpenAI chat-completions message shapes we send. */
export type UpstreamPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail: 'high' } };

export interface UpstreamMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | UpstreamPart[];
}

/**
 * The messages sent upstream: the agent's system message (always the server's), then the visitor's
 * messages with attachments turned into what the chosen model can take.
 */
export function buildUpstreamMessages(agent: Agent, model: string, messages: ChatRequestMessage[]): UpstreamMessage[] {
  const vision = isVisionModel(model);
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
  if (part.type === 'image_url') return imagePart(part.image_url.url, 'image', vision);
  const { filename, file_data } = part.file;
  const parsed = parseDataUrl(file_data);
  switch (classifyAttachment(filename, parsed?.mimeType)) {
    case 'image':
      return imagePart(file_data, filename, vision);
    case 'text':
      return { type: 'text', text: inlineText(filename, parsed?.base64 ?? '') };
    default:
      return {
        type: 'text',
        text: `[The user attached the file "${filename}". Its contents cannot be read here; only its name is available.]`,
      };
  }
}

function imagePart(url: string, name: string, vision: boolean): UpstreamPart {
  if (vision) return { type: 'image_url', image_url: { url, detail: 'high' } };
  return {
    type: 'text',
    text: `[The user uploaded a file ("${name}") that this model cannot process. Let them know, and suggest a vision-capable model if they need the image analysed.]`,
  };
}

/** Plain-text files are included for every model, cut at the per-message limit to bound tokens. */
function inlineText(filename: string, base64: string): string {
  const full = Buffer.from(base64, 'base64').toString('utf8');
  const max = CHAT_LIMITS.maxTotalChars;
  const body = full.length > max ? `${full.slice(0, max)}\n[… truncated: the file is longer than ${max} characters]` : full;
  return `Contents of the attached file "${filename}":\n\n${body}`;
}
