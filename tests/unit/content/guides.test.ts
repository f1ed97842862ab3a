import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeGuideSchema, makePageSchema } from '../../../src/content/schemas';
import { parseMdxFile, readAsBuilt } from '../../../src/editor/mdx-file';
import { editorImage } from '../../../src/editor/json-schema';
import { DEFAULT_GUIDE } from '../../../src/lib/guides';

// The free guides the lead forms e-mail: each guide builds, and every lead form names one that exists (the build
// checks it too, src/components/sections/LeadCapture.astro), so no page promises a guide that is not there.
const root = path.resolve(import.meta.dirname, '../../../src/content');
const mdx = (folder: string) => readdirSync(path.join(root, folder)).filter((f) => f.endsWith('.mdx'));
const guides = mdx('guides').map((f) => f.replace(/\.mdx$/, ''));

describe('free guides', () => {
  it('every guide has its frontmatter and a body', () => {
    expect(guides).toContain(DEFAULT_GUIDE);
    for (const name of guides) {
      const text = readFileSync(path.join(root, 'guides', `${name}.mdx`), 'utf8');
      expect(makeGuideSchema().safeParse(readAsBuilt(text)).success, name).toBe(true);
      expect(parseMdxFile(text).body.trim().length, name).toBeGreaterThan(500);
    }
  });

  it('every lead form names a guide that exists', () => {
    const forms = mdx('pages').flatMap((file) => {
      const page = makePageSchema(editorImage).parse(readAsBuilt(readFileSync(path.join(root, 'pages', file), 'utf8')));
      return page.sections.filter((s) => s.type === 'leadForm').map((s) => ({ file, guide: (s as { guide: string }).guide }));
    });
    expect(forms.length).toBeGreaterThanOrEqual(3);
    for (const { file, guide } of forms) expect(guides, file).toContain(guide);
  });
});
