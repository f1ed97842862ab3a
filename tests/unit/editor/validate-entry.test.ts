import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_COLLECTIONS } from '../../../src/editor/collections';
import { parseMdxFile } from '../../../src/editor/mdx-file';
import { validateEntry } from '../../../src/editor/validate-entry';

// The check the editor runs before every save: the content schema itself, with its messages, on the entry as
// it would be written and read back by the build.
const root = path.resolve(import.meta.dirname, '../../..');
const entryOf = (file: string) => {
  const { data, body } = parseMdxFile(readFileSync(path.join(root, file), 'utf8'));
  return { ...data, body };
};
const page = { title: 'Prices', description: 'What our services cost, and what each package includes for you.', heading: 'Prices' };

describe('the schema check before saving', () => {
  const sample: Record<string, string> = { pages: 'automation', blog: 'ai-strategy', guides: 'prepare-old-photos-for-restoration' };
  it.each(CONTENT_COLLECTIONS.flatMap((c) => [[c.name, `${c.folder}/${sample[c.name]}.mdx`]]))(
    'passes an existing %s entry (%s)',
    (collection, file) => {
      expect(validateEntry(collection, entryOf(file))).toEqual([]);
    },
  );

  it('refuses what only the schema knows, naming the field and the section', () => {
    expect(validateEntry('pages', { ...page, heading: undefined })).toEqual(['Heading: a page needs a heading or a hero section (its <h1>)']);
    const table = { type: 'table', title: 'Plans', columns: ['Plan', 'Price'], rows: [['Pro']] };
    expect(validateEntry('pages', { ...page, sections: [table] })).toEqual(['Sections 1 (Table) › Rows: every table row needs one cell per column']);
    const quiz = { type: 'quiz', title: 'Quiz', questions: [{ question: 'Q?', options: ['a', 'b'], correct: 2, feedback: 'Yes' }] };
    expect(validateEntry('pages', { ...page, sections: [quiz] })).toEqual(['Sections 1 (Quiz) › Questions 1 › Correct: correct must be the index of one of the options']);
  });

  it('refuses a half-filled optional group (the editor cannot mark its fields required)', () => {
    const hero = { type: 'hero', title: 'Hi', subtitle: 'There', comparison: { before: '../../assets/content/photo-original.png' } };
    const problems = validateEntry('pages', { title: 'P', description: page.description, sections: [hero] });
    expect(problems).toContain('Sections 1 (Hero (title, buttons, image)) › Comparison › After: image is required');
    expect(problems).toContain('Sections 1 (Hero (title, buttons, image)) › Comparison › Before image description (alt text): before alt is required (text)');
  });

  it('refuses an unknown link target with the list of the ones that exist', () => {
    const cta = { type: 'cta', title: 'Go', ctas: [{ label: 'Buy', href: 'ext:nowhere' }] };
    expect(validateEntry('pages', { ...page, sections: [cta] })[0]).toMatch(/^Sections 1 \(Call to action\) › Buttons 1 › Link: unknown ext: key; use one of /);
  });

  it('refuses a blog post without an article, or with an update before its date', () => {
    const post = entryOf('src/content/blog/ai-strategy.mdx');
    expect(validateEntry('blog', { ...post, body: '  \n' })).toEqual(['Article: write the article (a post without one cannot be published).']);
    expect(validateEntry('blog', { ...post, updated: '2020-01-01' })).toEqual(['Updated: updated must not be before date']);
  });

  it('refuses a guide without its text, and a lead form naming a guide by anything but a file name', () => {
    const guide = entryOf('src/content/guides/prepare-old-photos-for-restoration.mdx');
    expect(validateEntry('guides', { ...guide, body: '' })).toEqual(['Guide: write the guide (a guide without one cannot be published).']);
    const form = { type: 'leadForm', title: 'Guide', source: 'x', guide: 'My Guide.pdf' };
    expect(validateEntry('pages', { ...page, sections: [form] })[0]).toMatch(/^Sections 1 \(Lead form\) › Guide: guide must be the file name of a guide/);
  });
});
