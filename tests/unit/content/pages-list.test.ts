import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { contentPages } from '../../e2e/content-pages';

const pagesDir = path.resolve(import.meta.dirname, '../../../src/content/pages');

describe('content page list', () => {
  it('the e2e route list covers every MDX page (and the blog) and nothing else', async () => {
    const files = (await readdir(pagesDir)).filter((f) => f.endsWith('.mdx')).map((f) => `/${f.replace(/\.mdx$/, '')}`);
    expect(contentPages.map((p) => p.path).sort()).toEqual([...files, '/blog'].sort());
  });
});
