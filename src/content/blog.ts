import { site } from '../lib/site';

/**
 * The blog's rules in plain TypeScript (no `astro:` imports, so they are unit-tested directly): where a post
 * is read, the order of the posts, reading time and the post's structured data. Pages and the RSS feed call
 * these; none of them decides a link or an order on its own.
 */

/** Words read per minute for the reading-time estimate (the usual figure for prose read on screen). */
export const WORDS_PER_MINUTE = 200;

/** The post image's share-card rendition (og:image, structured data, RSS): one size, a format every reader takes. */
export const SHARE_IMAGE = { width: 1200, format: 'jpg' } as const;

interface Dated {
  id: string;
  data: { date: Date };
}

/** The external blog's base URL without a trailing slash, or '' when the blog lives on this site. */
export function externalBlogBase(externalBlog: string = site.external.blog): string {
  return externalBlog.trim().replace(/\/+$/, '');
}

/**
 * Where a post is read: `/blog/{id}` on this site, or `{PUBLIC_EXTERNAL_BLOG_URL}/{id}` when the business
 * keeps its articles on an external blog.
 */
export function postHref(id: string, externalBlog: string = site.external.blog): string {
  const base = externalBlogBase(externalBlog);
  return base ? `${base}/${id}` : `/blog/${id}`;
}

/** Newest first; posts of the same day by file name, so the order (and previous/next) never shuffles. */
export function sortPosts<T extends Dated>(posts: T[]): T[] {
  return [...posts].sort((a, b) => b.data.date.getTime() - a.data.date.getTime() || a.id.localeCompare(b.id));
}

/**
 * The neighbours of a post in date order: `previous` is the next older article, `next` the next newer one
 * (either is missing at the ends of the list).
 */
export function adjacentPosts<T extends Dated>(posts: T[], id: string): { previous?: T; next?: T } {
  const ordered = sortPosts(posts);
  const index = ordered.findIndex((post) => post.id === id);
  if (index === -1) throw new Error(`No blog post with the id "${id}"`);
  return { previous: ordered[index + 1], next: ordered[index - 1] };
}

/**
 * On this site every post is an article: a post whose MDX body is empty would publish an empty page, so the
 * build stops and names the files to finish.
 */
export function requireArticleBodies<T extends { id: string; body?: string }>(posts: T[]): T[] {
  const empty = posts.filter((post) => !(post.body ?? '').trim()).map((post) => `src/content/blog/${post.id}.mdx`);
  if (empty.length) throw new Error(`Blog posts without an article (write the MDX body below the frontmatter): ${empty.join(', ')}`);
  return posts;
}

/**
 * Words a reader reads in an MDX body: ESM lines, tag syntax (components, HTML) and link targets are not
 * read, so they are not counted. Words are found by the platform's word segmenter, not by splitting on spaces.
 */
export function countWords(mdxBody: string): number {
  const prose = mdxBody
    .replace(/^\s*(?:import|export)\s.*$/gm, ' ')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ');
  let words = 0;
  for (const segment of new Intl.Segmenter('en', { granularity: 'word' }).segment(prose)) if (segment.isWordLike) words++;
  return words;
}

/** Whole minutes to read `words` words, at least one. */
export function readingMinutes(words: number, wordsPerMinute: number = WORDS_PER_MINUTE): number {
  return Math.max(1, Math.ceil(words / wordsPerMinute));
}

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** 'February 18, 2025': frontmatter dates are calendar days (UTC midnight), shown the same in every time zone. */
export function formatPostDate(date: Date): string {
  return dateFormat.format(date);
}

/** '2025-02-18', for `<time datetime>` and structured data. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Makes the site-relative addresses (`href="/…"`, `src="/…"`) of rendered HTML absolute against `origin`, as
 * feed readers show an article away from the site. Protocol-relative (`//…`) and absolute addresses are kept.
 */
export function absoluteUrls(html: string, origin: URL | string): string {
  return html.replace(/\b(href|src)="(\/(?!\/)[^"]*)"/g, (_, attribute: string, path: string) => `${attribute}="${new URL(path, origin).href}"`);
}

export interface BlogPostingInput {
  title: string;
  excerpt: string;
  date: Date;
  updated?: Date;
  category: string;
  /** Absolute URL of the post page. */
  url: string;
  /** Absolute URL of the post's image. */
  imageUrl: string;
  words: number;
}

/** schema.org `BlogPosting` for a post page: what search engines read about the article. */
export function blogPostingJsonLd(post: BlogPostingInput): Record<string, unknown> {
  const publisher = { '@type': 'Organization', name: site.brand, url: site.url };
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt,
    datePublished: isoDay(post.date),
    dateModified: isoDay(post.updated ?? post.date),
    image: [post.imageUrl],
    url: post.url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': post.url },
    articleSection: post.category,
    wordCount: post.words,
    timeRequired: `PT${readingMinutes(post.words)}M`,
    inLanguage: 'en',
    author: publisher,
    publisher,
  };
}
