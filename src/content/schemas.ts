import { z } from 'zod';
import { text, type ImageFactory } from './fields';
import { pageSections } from './sections';

/**
 * Zod schemas of the content collections (`src/content.config.ts` wires them to Astro). They live here,
 * without `astro:content` imports, so unit tests can parse sample entries directly. Images are passed in
 * as a factory (`image()` from Astro's schema context; tests pass a string schema).
 *
 * A page is a list of sections, each a `{ type, ... }` object of the discriminated union below. To add a
 * page, drop an `.mdx` file into `src/content/pages/`; to add a plan, FAQ item or feature, edit the
 * section's list in that file's frontmatter. A wrong or missing field fails `astro build` with the path
 * of the field and the message below.
 */

export {
  careerSchema, cookieSchema, externalKeys, faqItemSchema, featureSchema, hrefSchema, ICON_NAMES, linkSchema, planSchema,
  quizQuestionSchema, statSchema, stepSchema, tagSchema, testimonialSchema, useCaseSchema, voiceSchema, type ImageFactory,
} from './fields';

/** Builds the page schema; `image` is Astro's `image()` helper (or a stand-in in tests). */
export function makePageSchema(image: ImageFactory) {
  const sections = pageSections(image);

  return z
    .strictObject({
      /** Document title (before ' | brand'). */
      title: text('title'),
      /** Meta description, 50-170 characters. */
      description: z.string().min(50, 'description should be at least 50 characters').max(170, 'description should be at most 170 characters'),
      /** The page's <h1> when the page has no hero section. */
      heading: z.string().optional(),
      headingDescription: z.string().optional(),
      /** Legal pages: 'DD-MM-YYYY'. */
      lastUpdated: z.string().regex(/^\d{2}-\d{2}-\d{4}$/, 'lastUpdated must be DD-MM-YYYY').optional(),
      sections: z.array(z.discriminatedUnion('type', sections)).default([]),
    })
    .superRefine((page, ctx) => {
      const heroes = (page.sections as { type: string }[]).filter((s) => s.type === 'hero').length;
      if (heroes > 1) ctx.addIssue({ code: 'custom', message: 'a page has at most one hero section', path: ['sections'] });
      if (heroes === 1 && page.heading) ctx.addIssue({ code: 'custom', message: 'give either a hero section or heading, not both (one <h1> per page)', path: ['heading'] });
      if (heroes === 0 && !page.heading) ctx.addIssue({ code: 'custom', message: 'a page needs a heading or a hero section (its <h1>)', path: ['heading'] });
    });
}

/** The blog's categories: each post names one (shown on its card and page, and as the RSS category). */
export const BLOG_CATEGORIES = ['AI Strategy', 'Automation', 'Video', 'Agents', 'Research', 'Photo Restoration'] as const;

/**
 * A blog post's frontmatter. The MDX body below it is the article, rendered at `/blog/{file name}` and in
 * full in `/rss.xml`. Unknown fields are rejected so a misspelt one fails the build instead of vanishing.
 */
export function makeBlogSchema(image: ImageFactory) {
  return z
    .strictObject({
      /** The article's title: its <h1>, the card heading and the document title. */
      title: text('title'),
      /** One or two sentences: the card text, the page's meta description and the RSS description. */
      excerpt: z.string().min(20, 'excerpt should be at least 20 characters').max(240, 'excerpt should be at most 240 characters'),
      /** Publication date, YYYY-MM-DD; orders the posts (newest first) and their previous/next links. */
      date: z.coerce.date({ error: 'date must be a date (YYYY-MM-DD)' }),
      /** Date of the last real revision, YYYY-MM-DD; shown as "Updated" and given to search engines. */
      updated: z.coerce.date({ error: 'updated must be a date (YYYY-MM-DD)' }).optional(),
      /** Relative path to the image in src/assets/content/blog/ (card, article header and share card). */
      image: image(),
      /** What the image shows, for readers who cannot see it. */
      imageAlt: text('image alt').max(200, 'image alt should be at most 200 characters'),
      category: z.enum(BLOG_CATEGORIES, { error: `category must be one of ${BLOG_CATEGORIES.join(', ')}` }),
    })
    .refine((post) => !post.updated || post.updated.getTime() >= post.date.getTime(), {
      message: 'updated must not be before date',
      path: ['updated'],
    });
}

export type PageData = z.output<ReturnType<typeof makePageSchema>>;
export type Section = PageData['sections'][number];

/**
 * A free guide's frontmatter (`src/content/guides/{file name}.mdx`). The MDX body below it is the guide, a page at
 * `/guides/{file name}` that a lead form's e-mail links to (public, unlisted: not in the sitemap, noindex). A lead
 * form names the guide it gives by its file name (`guide:` in its section).
 */
export function makeGuideSchema() {
  return z.strictObject({
    /** The guide's title: its <h1> and the document title. */
    title: text('title'),
    /** One or two sentences under the title; also the page's meta description. */
    description: z.string().min(50, 'description should be at least 50 characters').max(200, 'description should be at most 200 characters'),
    /** Date of the last real revision, YYYY-MM-DD; shown as "Updated". */
    updated: z.coerce.date({ error: 'updated must be a date (YYYY-MM-DD)' }),
  });
}

export type GuideData = z.output<ReturnType<typeof makeGuideSchema>>;
