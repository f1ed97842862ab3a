import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../../src/lib/chat/agents';
import {
  initialConversation,
  requestMessages,
  transcript,
  transcriptFileName,
  type ConversationMessage,
} from '../../../src/lib/chat/conversation';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import { chatRequestSchema } from '../../../src/lib/chat/schema';
import { withFileTag } from '../../../src/lib/chat/attachments';

const agent = AGENTS[0];

describe('conversation', () => {
  it('replays the text read from earlier attachments as document parts, dropping the oldest to stay within the caps', () => {
    const doc = (n: number) => ({ filename: `d${n}.pdf`, text: `${n}`.repeat(CHAT_LIMITS.maxDocumentChars) });
    const history: ConversationMessage[] = [
      ...initialConversation(agent, 1),
      ...[1, 2, 3].flatMap((n): ConversationMessage[] => [
        { role: 'user', content: `[d${n}.pdf] read`, timestamp: 10 * n, documents: [doc(n)] },
        { role: 'assistant', content: `read ${n}`, timestamp: 10 * n + 1 },
      ]),
    ];
    const messages = requestMessages(history, { text: 'Compare them' });
    expect(chatRequestSchema.safeParse({ agentId: agent.id, model: 'openai/gpt-4o', messages }).success).toBe(true);
    const documents = messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'document')));
    // Two documents of 60,000 characters and their questions pass the 120,000-character cap: only the newest is kept.
    expect(documents.map((p) => (p as { document: { filename: string } }).document.filename)).toEqual(['d3.pdf']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Compare them' });
  });

  it('starts with the system message and the greeting', () => {
    const [system, hello] = initialConversation(agent, 1);
    expect(system).toMatchObject({ role: 'system', timestamp: 1 });
    expect(system!.content).toContain(agent.name);
    expect(system!.content).toContain(agent.description);
    expect(hello).toMatchObject({ role: 'assistant' });
    expect(hello!.content).toContain(agent.name);
  });

  it('sends history without the system message or failed replies, and always fits the server limits', () => {
    const history: ConversationMessage[] = [
      ...initialConversation(agent, 1),
      { role: 'user', content: 'q1', timestamp: 2 },
      { role: 'assistant', content: 'boom', timestamp: 3, status: 'error' },
    ];
    const sent = requestMessages(history, { text: 'q2' });
    expect(sent.map((m) => m.role)).toEqual(['assistant', 'user', 'user']);
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'q2' });

    const long: ConversationMessage[] = Array.from({ length: 300 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: 'y'.repeat(3000),
      timestamp: i,
    }));
    const trimmed = requestMessages(long, { text: 'latest' });
    expect(trimmed.length).toBeLessThanOrEqual(CHAT_LIMITS.maxMessages);
    expect(chatRequestSchema.safeParse({ agentId: agent.id, model: 'openai/gpt-4o', messages: trimmed }).success).toBe(true);
    expect(trimmed.at(-1)).toEqual({ role: 'user', content: 'latest' });
  });

  it('puts an attachment next to the text of the new message', () => {
    const file = { type: 'file' as const, file: { filename: 'a.png', file_data: 'data:image/png;base64,AAAA' } };
    expect(requestMessages([], { text: '[a.png] hi', attachment: file })).toEqual([
      { role: 'user', content: [{ type: 'text', text: '[a.png] hi' }, file] },
    ]);
  });

  it('writes the transcript with You: and the agent name, and names the file by agent and date', () => {
    const text = transcript(agent, [
      ...initialConversation(agent, 1),
      { role: 'user', content: 'Hi', timestamp: 2 },
      { role: 'assistant', content: 'Hello there', timestamp: 3 },
    ]);
    const lines = text.trim().split('\n\n');
    expect(lines[0]).toMatch(/^Market Research Agent: Hello! I'm the Market Research Agent/);
    expect(lines.slice(1)).toEqual(['You: Hi', 'Market Research Agent: Hello there']);
    expect(text).not.toContain('concise, helpful');
    expect(transcriptFileName('market-research', new Date(2026, 0, 5))).toBe('conversation-with-market-research-2026-01-05.txt');
  });

  it('replaces the previous file tag when another file is chosen', () => {
    expect(withFileTag('hello', 'a.png')).toBe('[a.png] hello');
    expect(withFileTag('[a.png] hello', 'b.csv', 'a.png')).toBe('[b.csv] hello');
  });
});
