import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { makeBlogSchema, makeGuideSchema, makePageSchema } from './content/schemas';

/**
 * Content collections. The schemas live in `src/content/schemas.ts` (documented there, unit-tested in
 * tests/unit/content/): `pages` are the marketing, partner, landing and legal pages, one MDX file per route
 * (file name = URL path); `blog` holds the blog's article cards; `guides` the free guides the lead forms give
 * (unlisted pages at /guides/{file name}).
 */
const pages = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/pages' }),
  schema: ({ image }) => makePageSchema(image),
});

const blog = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/blog' }),
  schema: ({ image }) => makeBlogSchema(image),
});

const guides = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/guides' }),
  schema: makeGuideSchema(),
});

export const collections = { pages, blog, guides };
