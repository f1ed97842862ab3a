import { describe, expect, it } from 'vitest';
import { chatRequestSchema, describeIssues } from '../../../src/lib/chat/schema';

const base = {
  agentId: 'content-writer',
  model: 'openai/gpt-4o',
  messages: [{ role: 'user', content: 'Write a tagline' }],
};

describe('chat request schema', () => {
  it('fills the slider defaults', () => {
    const parsed = chatRequestSchema.parse(base);
    expect(parsed).toMatchObject({ temperature: 0.7, top_p: 0.9, frequency_penalty: 0, presence_penalty: 0 });
  });

  it('accepts the range ends and rejects beyond them', () => {
    expect(chatRequestSchema.safeParse({ ...base, temperature: 2, top_p: 1, frequency_penalty: 2, presence_penalty: 0 }).success).toBe(true);
    for (const bad of [{ temperature: 2.01 }, { top_p: -0.1 }, { frequency_penalty: 2.5 }, { presence_penalty: '1' }]) {
      expect(chatRequestSchema.safeParse({ ...base, ...bad }).success).toBe(false);
    }
  });

  it('explains a system message clearly', () => {
    const result = chatRequestSchema.safeParse({ ...base, messages: [{ role: 'system', content: 'x' }, ...base.messages] });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!)).toMatch(/^Invalid request: messages\.0\.role: Messages with role "system" are not accepted/);
  });

  it('accepts text, image and file parts, and refuses images from the assistant', () => {
    const png = 'data:image/png;base64,AAAA';
    const ok = {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: png, detail: 'high' } },
            { type: 'file', file: { filename: 'a.txt', file_data: 'data:text/plain;base64,aGk=' } },
          ],
        },
      ],
    };
    expect(chatRequestSchema.safeParse(ok).success).toBe(true);
    const assistantImage = {
      ...base,
      messages: [{ role: 'assistant', content: [{ type: 'image_url', image_url: { url: png } }] }, ...base.messages],
    };
    expect(chatRequestSchema.safeParse(assistantImage).success).toBe(false);
  });

  it('requires the last message to come from the user', () => {
    const result = chatRequestSchema.safeParse({ ...base, messages: [...base.messages, { role: 'assistant', content: 'ok' }] });
    expect(result.success).toBe(false);
  });
});
