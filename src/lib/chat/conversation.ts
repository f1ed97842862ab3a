import type { Agent } from './agents';
import { greeting, systemPrompt } from './agents';
import { CHAT_LIMITS } from './request-limits';
import { countedChars, type ChatContentPart, type ChatRequestMessage } from './schema';
import type { ReadDocument, ReplyCut } from './stream-protocol';

/**
 * A chat message as the island keeps it (role, content, timestamp). `status` marks a reply that failed
 * or was stopped, so it is shown as such and not replayed to the model as if it were good, or one that was
 * cut (`cut` says why) and can be continued. A user message keeps the text the server read from its
 * attachments (`documents`), so later questions can still be about them.
 */
export interface ConversationMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  timestamp: number;
  status?: 'error' | 'stopped' | 'cut';
  cut?: ReplyCut;
  /** A reasoning model's thinking, shown on request. */
  reasoning?: string;
  documents?: ReadDocument[];
}

export function isConversation(value: unknown): value is ConversationMessage[] {
  return (
    Array.isArray(value) &&
    value.every(
      (m) =>
        m !== null &&
        typeof m === 'object' &&
        ['system', 'user', 'assistant'].includes((m as ConversationMessage).role) &&
        typeof (m as ConversationMessage).content === 'string' &&
        typeof (m as ConversationMessage).timestamp === 'number' &&
        isDocumentList((m as ConversationMessage).documents),
    )
  );
}

function isDocumentList(value: unknown): boolean {
  return (
    value === undefined ||
    (Array.isArray(value) && value.every((d) => d !== null && typeof d === 'object' && typeof d.filename === 'string' && typeof d.text === 'string'))
  );
}

/** The conversation a freshly activated agent starts with: its system message and greeting. */
export function initialConversation(agent: Agent, now = Date.now()): ConversationMessage[] {
  return [
    { role: 'system', content: systemPrompt(agent), timestamp: now },
    { role: 'assistant', content: greeting(agent), timestamp: now },
  ];
}

/**
 * The messages to send for the next reply: the newest history that fits the server's limits, without
 * the system message (the server writes its own) or failed replies, then the new user message.
 */
export function requestMessages(
  history: ConversationMessage[],
  next: { text: string; attachment?: ChatContentPart },
): ChatRequestMessage[] {
  const last: ChatRequestMessage = next.attachment
    ? { role: 'user', content: [{ type: 'text', text: next.text }, next.attachment] }
    : { role: 'user', content: next.text };

  const usable = history.filter(
    (m): m is ConversationMessage & { role: 'user' | 'assistant' } =>
      m.role !== 'system' && m.status !== 'error' && m.content.trim() !== '',
  );
  const kept: ChatRequestMessage[] = [];
  // An attachment sent now is read by the server and counted there; what was read before is counted here.
  let chars = next.text.length;
  for (let i = usable.length - 1; i >= 0 && kept.length < CHAT_LIMITS.maxMessages - 1; i--) {
    const m = usable[i]!;
    const text = m.content.slice(0, CHAT_LIMITS.maxMessageChars);
    const content: ChatRequestMessage['content'] =
      m.role === 'user' && m.documents?.length
        ? [{ type: 'text', text }, ...m.documents.slice(0, CHAT_LIMITS.maxPartsPerMessage - 1).map((document) => ({ type: 'document' as const, document }))]
        : text;
    const size = countedChars(content);
    if (chars + size > CHAT_LIMITS.maxTotalChars) break;
    chars += size;
    kept.unshift({ role: m.role, content });
  }
  return [...kept, last];
}

/** The downloadable transcript: `You:` for the visitor, the agent's name for replies. */
export function transcript(agent: Agent, messages: ConversationMessage[]): string {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role === 'user' ? 'You' : agent.name}: ${m.content}`)
    .join('\n\n')
    .concat('\n');
}

/** conversation-with-{agent-id}-{YYYY-MM-DD}.txt, in the visitor's local date. */
export function transcriptFileName(agentId: string, date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `conversation-with-${agentId}-${day}.txt`;
}
