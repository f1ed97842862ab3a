import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_COLLECTIONS } from '../../../src/editor/collections';
import { canonicalMdx, entryFormat, formatMdxFile, normaliseEntry, parseMdxFile, readAsBuilt } from '../../../src/editor/mdx-file';

// The file format the editor writes (src/editor/mdx-file.ts). Every content file is in it, so opening and saving
// an entry in the editor gives back the same bytes, and a save changes only the lines of the values that changed.
const root = path.resolve(import.meta.dirname, '../../..');
const pages = CONTENT_COLLECTIONS.find((c) => c.name === 'pages')!;

describe('content files in the editor’s form', () => {
  for (const collection of CONTENT_COLLECTIONS) {
    const folder = path.join(root, collection.folder);
    const files = readdirSync(folder).filter((f) => f.endsWith('.mdx'));
    it.each(files)(`${collection.name}/%s reads into the editor and saves back byte for byte`, (file) => {
      const text = readFileSync(path.join(folder, file), 'utf8');
      expect(canonicalMdx(text, collection.json), 'not in the editor’s form: run npm run content:format').toBe(text);
      const format = entryFormat(collection.json);
      expect(format.toFile(format.fromFile(text))).toBe(text);
    });
  }
});

describe('the editor’s file format', () => {
  const page = [
    '---',
    'title: Pricing',
    'description: A page about prices.',
    'heading: Pricing',
    'sections:',
    '  - type: cta',
    '    title: Talk to us',
    '    ctas:',
    '      - label: Call',
    '        href: /contact',
    '---',
    "import { site } from '../../lib/site';",
    '',
    'Body with {site.brand} and **MDX**.',
    '',
  ].join('\n');

  it('keeps the MDX body exactly, imports and expressions included', () => {
    const { data, body } = parseMdxFile(page);
    expect(body).toBe("import { site } from '../../lib/site';\n\nBody with {site.brand} and **MDX**.\n");
    expect(formatMdxFile({ data, body })).toBe(page);
  });

  it('changes only the line of a changed value', () => {
    const format = entryFormat(pages.json);
    const entry = format.fromFile(page);
    const saved = format.toFile({ ...entry, heading: 'Prices' });
    expect(saved.split('\n').filter((line, i) => line !== page.split('\n')[i])).toEqual(['heading: Prices']);
  });

  it("writes keys in the schema's order and leaves cleared optional fields out", () => {
    const data = { sections: [{ ctas: [{ href: '/x', label: 'Go' }], title: 'T', type: 'cta', text: '', id: null }], heading: '', title: 'A', description: 'D' };
    expect(normaliseEntry(data, pages.json)).toEqual({ title: 'A', description: 'D', sections: [{ type: 'cta', title: 'T', ctas: [{ label: 'Go', href: '/x' }] }] });
    expect(JSON.stringify(normaliseEntry(data, pages.json))).toBe('{"title":"A","description":"D","sections":[{"type":"cta","title":"T","ctas":[{"label":"Go","href":"/x"}]}]}');
  });

  it('keeps a cleared required field (the schema then says it is missing) and unknown keys (the schema rejects them)', () => {
    expect(normaliseEntry({ title: '', extra: 1 }, pages.json)).toEqual({ title: '', extra: 1 });
  });

  it('keeps dates as written, and Astro reads them as dates', () => {
    const post = '---\ntitle: A\ndate: 2025-02-18\n---\nText\n';
    expect(parseMdxFile(post).data.date).toBe('2025-02-18');
    expect(formatMdxFile(parseMdxFile(post))).toBe(post);
    expect(readAsBuilt(post).date).toEqual(new Date('2025-02-18T00:00:00Z'));
  });

  it('quotes what YAML would otherwise read as another type or as structure', () => {
    const text = formatMdxFile({ data: { title: 'yes', description: 'Price: $5, or 10', heading: '123', lastUpdated: '#1' }, body: '' });
    expect(readAsBuilt(text)).toEqual({ title: 'yes', description: 'Price: $5, or 10', heading: '123', lastUpdated: '#1' });
  });

  it('never folds a long line', () => {
    const long = 'word '.repeat(60).trim();
    expect(formatMdxFile({ data: { title: long }, body: '' })).toBe(`---\ntitle: ${long}\n---\n`);
  });
});
