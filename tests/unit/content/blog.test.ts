import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BLOG_CATEGORIES, makeBlogSchema } from '../../../src/content/schemas';
import {
  absoluteUrls,
  adjacentPosts,
  blogPostingJsonLd,
  countWords,
  externalBlogBase,
  formatPostDate,
  isoDay,
  postHref,
  readingMinutes,
  requireArticleBodies,
  sortPosts,
} from '../../../src/content/blog';
import { site } from '../../../src/lib/site';

// Astro's image() is replaced by a plain string schema: the tests check structure, not files.
const blogSchema = makeBlogSchema(() => z.string());
const valid = {
  title: 'A post',
  excerpt: 'An excerpt that is long enough to describe the post.',
  date: '2025-02-18',
  image: '../../assets/content/blog/x.png',
  imageAlt: 'Bars of different heights on a teal background',
  category: 'Automation',
};

function issues(result: { success: boolean; error?: z.ZodError }): string[] {
  return result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('blog post frontmatter', () => {
  it('accepts a complete post, with or without an update date', () => {
    expect(blogSchema.parse(valid).date.toISOString()).toBe('2025-02-18T00:00:00.000Z');
    expect(blogSchema.parse({ ...valid, updated: '2025-03-01' }).updated).toBeInstanceOf(Date);
  });

  it('names each missing, empty or misspelt field', () => {
    const { imageAlt: _alt, ...noAlt } = valid;
    expect(issues(blogSchema.safeParse(noAlt))).toEqual(['imageAlt: image alt is required (text)']);
    expect(issues(blogSchema.safeParse({ ...valid, imageAlt: '  ' }))).toEqual(['imageAlt: image alt must not be empty']);
    expect(issues(blogSchema.safeParse({ ...valid, title: '' }))).toEqual(['title: title must not be empty']);
    expect(issues(blogSchema.safeParse({ ...valid, excerpt: 'Too short' }))).toEqual(['excerpt: excerpt should be at least 20 characters']);
    expect(issues(blogSchema.safeParse({ ...valid, autor: 'Sam' })).join()).toContain('autor');
  });

  it('lists the categories when one is unknown', () => {
    expect(issues(blogSchema.safeParse({ ...valid, category: 'Gossip' }))).toEqual([`category: category must be one of ${BLOG_CATEGORIES.join(', ')}`]);
  });

  it('rejects an update before the publication date and a date that is not one', () => {
    expect(issues(blogSchema.safeParse({ ...valid, updated: '2025-01-01' }))).toEqual(['updated: updated must not be before date']);
    expect(issues(blogSchema.safeParse({ ...valid, updated: 'later' }))).toEqual(['updated: updated must be a date (YYYY-MM-DD)']);
  });
});

describe('the posts in src/content/blog', () => {
  const dir = path.resolve(import.meta.dirname, '../../../src/content/blog');

  it('are full articles of 600 to 1,000 words with at least two sections', async () => {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.mdx'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const body = (await readFile(path.join(dir, file), 'utf8')).replace(/^---\n[\s\S]*?\n---\n/, '');
      const words = countWords(body);
      expect(words, file).toBeGreaterThanOrEqual(600);
      expect(words, file).toBeLessThanOrEqual(1000);
      expect(body.match(/^## /gm)?.length ?? 0, file).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('post links', () => {
  it('stay on this site when no external blog is configured', () => {
    expect(postHref('ai-strategy', '')).toBe('/blog/ai-strategy');
    expect(externalBlogBase('  ')).toBe('');
  });

  it('go to the external blog when PUBLIC_EXTERNAL_BLOG_URL is set, with or without a trailing slash', () => {
    expect(postHref('ai-strategy', 'https://blog.example.org/')).toBe('https://blog.example.org/ai-strategy');
    expect(postHref('ai-strategy', 'https://example.org/news')).toBe('https://example.org/news/ai-strategy');
  });

  it('default to on-site: the placeholder blog domain is gone from the configuration', () => {
    expect(site.external.blog).toBe(process.env.PUBLIC_EXTERNAL_BLOG_URL?.trim() ?? '');
    if (!site.external.blog) expect(postHref('x')).toBe('/blog/x');
  });

  it('become absolute in feed HTML, leaving external and protocol-relative ones alone', () => {
    const html = '<a href="/contact">c</a><img src="/_astro/x.jpg" alt=""><a href="https://x.org/a">x</a><img src="//cdn.org/y.png">';
    expect(absoluteUrls(html, 'https://lumora.example.com')).toBe(
      '<a href="https://lumora.example.com/contact">c</a><img src="https://lumora.example.com/_astro/x.jpg" alt=""><a href="https://x.org/a">x</a><img src="//cdn.org/y.png">',
    );
  });
});

describe('post order and previous/next', () => {
  const post = (id: string, date: string) => ({ id, data: { date: new Date(date) } });
  const posts = [post('b', '2025-01-09'), post('d', '2025-02-18'), post('a', '2024-12-02'), post('c', '2025-01-09')];

  it('sorts newest first, same-day posts by id', () => {
    expect(sortPosts(posts).map((p) => p.id)).toEqual(['d', 'b', 'c', 'a']);
    expect(posts.map((p) => p.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('links each post to the next older (previous) and next newer (next) one', () => {
    expect(adjacentPosts(posts, 'd')).toEqual({ previous: posts[0], next: undefined });
    expect(adjacentPosts(posts, 'b')).toEqual({ previous: posts[3], next: posts[1] });
    expect(adjacentPosts(posts, 'c')).toEqual({ previous: posts[2], next: posts[0] });
    expect(adjacentPosts(posts, 'a')).toEqual({ previous: undefined, next: posts[3] });
    expect(() => adjacentPosts(posts, 'zz')).toThrow('No blog post with the id "zz"');
  });

  it('stops the build on a post without an article, naming its file', () => {
    const withBodies = [{ id: 'a', body: 'Text.' }];
    expect(requireArticleBodies(withBodies)).toBe(withBodies);
    expect(() => requireArticleBodies([{ id: 'a', body: 'Text.' }, { id: 'b', body: '\n ' }, { id: 'c' }])).toThrow(
      'src/content/blog/b.mdx, src/content/blog/c.mdx',
    );
  });
});

describe('reading time', () => {
  it('counts the words a reader reads, not MDX syntax', () => {
    const body = [
      "import Chart from '../../components/Chart.astro';",
      '',
      '## Two words',
      '',
      'A [linked phrase](/contact "title") and **bold** text, e-mail and 2025.',
      '<Chart data={[1, 2, 3]} caption="not counted" />',
    ].join('\n');
    // Two, words, A, linked, phrase, and, bold, text, e, mail, and, 2025
    expect(countWords(body)).toBe(12);
    expect(countWords('')).toBe(0);
  });

  it('rounds up to whole minutes at 200 words a minute, never below one', () => {
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(200)).toBe(1);
    expect(readingMinutes(201)).toBe(2);
    expect(readingMinutes(840)).toBe(5);
    expect(readingMinutes(300, 100)).toBe(3);
  });
});

describe('dates and structured data', () => {
  it('shows frontmatter dates as the same calendar day everywhere', () => {
    const date = new Date('2025-02-04');
    expect(formatPostDate(date)).toBe('February 4, 2025');
    expect(isoDay(date)).toBe('2025-02-04');
  });

  const input = {
    title: 'A post',
    excerpt: 'About it.',
    date: new Date('2025-02-18'),
    category: 'Automation',
    url: 'https://lumora.example.com/blog/a',
    imageUrl: 'https://lumora.example.com/_astro/a.jpg',
    words: 840,
  };

  it('describes a post as a schema.org BlogPosting', () => {
    const jsonLd = blogPostingJsonLd(input);
    expect(jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'A post',
      datePublished: '2025-02-18',
      dateModified: '2025-02-18',
      image: ['https://lumora.example.com/_astro/a.jpg'],
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://lumora.example.com/blog/a' },
      articleSection: 'Automation',
      wordCount: 840,
      timeRequired: 'PT5M',
      author: { '@type': 'Organization', name: site.brand },
    });
  });

  it('gives the revision date as dateModified when there is one', () => {
    expect(blogPostingJsonLd({ ...input, updated: new Date('2025-03-01') }).dateModified).toBe('2025-03-01');
  });
});
