import { describe, expect, it } from 'vitest';
import { AGENTS, systemPrompt } from '../../../src/lib/chat/agents';
import { classifyAttachment, documentFormat } from '../../../src/lib/chat/attachments';
import { buildUpstreamMessages } from '../../../netlify/lib/chat/upstream-messages';

const agent = AGENTS[1];
const png = 'data:image/png;base64,iVBORw0KGgo=';
const file = (filename: string, file_data: string) => ({
  role: 'user' as const,
  content: [{ type: 'text' as const, text: 'look' }, { type: 'file' as const, file: { filename, file_data } }],
});

describe('buildUpstreamMessages', () => {
  it('always starts with the agent system message', () => {
    const out = buildUpstreamMessages(agent, true, [{ role: 'user', content: 'hi' }]);
    expect(out).toEqual([
      { role: 'system', content: systemPrompt(agent) },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends images only to vision models', () => {
    for (const vision of [true, false]) {
      const [, user] = buildUpstreamMessages(agent, vision, [file('p.jpg', png)]);
      expect(JSON.stringify(user).includes('"image_url"'), String(vision)).toBe(vision);
      if (vision) expect(user!.content).toContainEqual({ type: 'image_url', image_url: { url: png, detail: 'high' } });
    }
  });

  it('puts a document read before in front of the model with its name, for every model', () => {
    const message = { role: 'user' as const, content: [{ type: 'text' as const, text: 'sum it' }, { type: 'document' as const, document: { filename: 'n.txt', text: 'naïve ✓' } }] };
    const [, user] = buildUpstreamMessages(agent, false, [message]);
    expect(user!.content).toBe('sum it\n\nContents of the attached file "n.txt":\n\nnaïve ✓');
  });
});

describe('classifyAttachment', () => {
  it('goes by extension, then MIME type', () => {
    expect(classifyAttachment('A.PNG')).toBe('image');
    expect(classifyAttachment('x.jpeg')).toBe('image');
    expect(classifyAttachment('d.csv')).toBe('document');
    expect(classifyAttachment('r.md')).toBe('document');
    expect(classifyAttachment('s.xlsx')).toBe('document');
    expect(classifyAttachment('doc.pdf', 'image/png')).toBe('document');
    expect(classifyAttachment('blob', 'text/plain')).toBe('document');
    expect(classifyAttachment('run.exe')).toBe('other');
    expect(documentFormat('Report.PDF')).toBe('pdf');
    expect(documentFormat('old.doc')).toBe('doc');
    expect(documentFormat('blob', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('docx');
  });
});

describe('uploadDataUrl', () => {
  it('uploads documents always (the server reads them), images only for vision models', async () => {
    const { uploadDataUrl } = await import('../../../src/lib/chat/attachments');
    const txt = 'data:text/plain;base64,aGk=';
    const pdf = 'data:application/pdf;base64,JVBERi0=';
    expect(uploadDataUrl('a.txt', txt, false)).toBe(txt);
    expect(uploadDataUrl('r.pdf', pdf, false)).toBe(pdf);
    expect(uploadDataUrl('p.png', png, true)).toBe(png);
    expect(uploadDataUrl('p.png', png, false)).toBe('data:image/png;base64,');
  });
});
