import { describe, expect, it } from 'vitest';
import { AGENTS, systemPrompt } from '../../../src/lib/chat/agents';
import { classifyAttachment } from '../../../src/lib/chat/attachments';
import { buildUpstreamMessages } from '../../../netlify/lib/chat/upstream-messages';
import { CHAT_MODELS } from '../../../src/lib/chat/models';

const agent = AGENTS[1];
const png = 'data:image/png;base64,iVBORw0KGgo=';
const file = (filename: string, file_data: string) => ({
  role: 'user' as const,
  content: [{ type: 'text' as const, text: 'look' }, { type: 'file' as const, file: { filename, file_data } }],
});

describe('buildUpstreamMessages', () => {
  it('always starts with the agent system message', () => {
    const out = buildUpstreamMessages(agent, 'openai/gpt-4o', [{ role: 'user', content: 'hi' }]);
    expect(out).toEqual([
      { role: 'system', content: systemPrompt(agent) },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends images only to the vision models', () => {
    for (const model of CHAT_MODELS) {
      const [, user] = buildUpstreamMessages(agent, model.id, [file('p.jpg', png)]);
      const hasImage = JSON.stringify(user).includes('"image_url"');
      expect(hasImage, model.id).toBe(model.vision);
      if (model.vision) expect(user!.content).toContainEqual({ type: 'image_url', image_url: { url: png, detail: 'high' } });
    }
  });

  it('decodes text files as UTF-8', () => {
    const data = `data:text/plain;base64,${Buffer.from('naïve ✓').toString('base64')}`;
    const [, user] = buildUpstreamMessages(agent, 'qwen/qwq-32b:free', [file('n.txt', data)]);
    expect(user!.content).toBe('look\n\nContents of the attached file "n.txt":\n\nnaïve ✓');
  });
});

describe('classifyAttachment', () => {
  it('goes by extension, then MIME type', () => {
    expect(classifyAttachment('A.PNG')).toBe('image');
    expect(classifyAttachment('x.jpeg')).toBe('image');
    expect(classifyAttachment('d.csv')).toBe('text');
    expect(classifyAttachment('r.md')).toBe('text');
    expect(classifyAttachment('s.xlsx')).toBe('other');
    expect(classifyAttachment('doc.pdf', 'image/png')).toBe('other');
    expect(classifyAttachment('blob', 'text/plain')).toBe('text');
  });
});

describe('uploadDataUrl', () => {
  it('uploads text files always, images only for vision models, other files by name only', async () => {
    const { uploadDataUrl } = await import('../../../src/lib/chat/attachments');
    const txt = 'data:text/plain;base64,aGk=';
    expect(uploadDataUrl('a.txt', txt, false)).toBe(txt);
    expect(uploadDataUrl('p.png', png, true)).toBe(png);
    expect(uploadDataUrl('p.png', png, false)).toBe('data:image/png;base64,');
    expect(uploadDataUrl('r.pdf', 'data:application/pdf;base64,JVBERi0=', true)).toBe('data:application/pdf;base64,');
  });
});
