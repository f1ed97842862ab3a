import { describe, expect, it } from 'vitest';
import { imageNotSentNote } from '../../../src/lib/chat/attachments';
import { CHAT_LIMITS, IMAGE_PART_TOKENS } from '../../../src/lib/chat/request-limits';
import { chatRequestSchema, describeIssues, promptTokenEstimate, sentImages } from '../../../src/lib/chat/schema';

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

describe('images in a request', () => {
  const png = 'data:image/png;base64,AAAA';
  const image = (url = png) => ({ type: 'image_url' as const, image_url: { url } });
  const photo = (data = 'AAAA') => ({ type: 'file' as const, file: { filename: 'photo.jpg', file_data: `data:image/jpeg;base64,${data}` } });
  const ask = (...parts: object[]) => ({ role: 'user' as const, content: [{ type: 'text' as const, text: 'see' }, ...parts] });

  it(`accepts ${CHAT_LIMITS.maxImagesPerRequest} image parts in a request, with or without data, and refuses one more`, () => {
    const four = { ...base, messages: [ask(image(), image('data:image/png;base64,')), { role: 'assistant', content: 'ok' }, ask(photo(), photo(''))] };
    expect(chatRequestSchema.safeParse(four).success).toBe(true);
    const five = { ...base, messages: [ask(image(), image(), image()), { role: 'assistant', content: 'ok' }, ask(photo(), photo())] };
    const result = chatRequestSchema.safeParse(five);
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!)).toBe(`Invalid request: messages: At most ${CHAT_LIMITS.maxImagesPerRequest} images per request.`);
  });

  it('counts IMAGE_PART_TOKENS only for an image with data sent to a model that takes images; any other image counts its note', () => {
    const text = [{ role: 'user' as const, content: 'see' }];
    const withImages = (url: string) => [chatRequestSchema.parse({ ...base, messages: [ask(image(url), photo(url.split(',')[1]))] }).messages].flat();
    const plain = promptTokenEstimate(text, true);
    expect(sentImages(withImages(png), true)).toBe(2);
    expect(promptTokenEstimate(withImages(png), true)).toBeGreaterThanOrEqual(plain + 2 * IMAGE_PART_TOKENS);
    for (const [label, messages, vision] of [
      ['empty images, vision model', withImages('data:image/png;base64,'), true],
      ['images with data, text model', withImages(png), false],
    ] as const) {
      expect(sentImages(messages, vision), label).toBe(0);
      const note = Math.ceil((imageNotSentNote('image').length + imageNotSentNote('photo.jpg').length) / 4);
      expect(promptTokenEstimate(messages, vision), label).toBeLessThanOrEqual(plain + note + 2);
    }
  });
});
