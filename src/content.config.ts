import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { makeBlogSchema, makePageSchema } from './content/schemas';

/**
 * Content collections. The schemas live in `src/content/schemas.ts` (documented there, unit-tested in
 * tests/unit/content/): `pages` are the marketing, partner, landing and legal pages, one MDX file per route
 * (file name = URL path); `blog` holds the blog's article cards.
 */
const pages = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/pages' }),
  schema: ({ image }) => makePageSchema(image),
});

const blog = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/blog' }),
  schema: ({ image }) => makeBlogSchema(image),
});

export const collections = { pages, blog };
