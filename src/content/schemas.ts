import { z } from 'zod';
import { site } from '../lib/site';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ImageFactory = () => z.ZodType<any>;

/** Icon names understood by `src/components/ui/Icon.astro`. */
export const ICON_NAMES = [
  'brain', 'lightbulb', 'video', 'layout', 'workflow', 'bot', 'messages', 'calendar', 'image', 'wand', 'chart',
  'search', 'phone', 'rocket', 'pen', 'mic', 'graduation', 'stethoscope', 'paw', 'heart', 'target', 'scale',
  'gavel', 'network', 'database', 'sparkles', 'mail', 'clock', 'external', 'pencil', 'chart-pie', 'check',
  'shield', 'zap', 'users', 'award', 'trending', 'star',
] as const;

/** Every `ext:` key a link may use: the paths of the non-empty URLs in `site.external`. */
export function externalKeys(source: Record<string, unknown> = site.external, prefix = ''): string[] {
  return Object.entries(source).flatMap(([key, value]) =>
    typeof value === 'string'
      ? value
        ? [`${prefix}${key}`]
        : []
      : externalKeys(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

const text = (what: string) => z.string({ error: `${what} is required (text)` }).trim().min(1, `${what} must not be empty`);

/**
 * A link target: an internal path ('/contact'), an in-page anchor ('#contact-form') or `ext:KEY` naming an
 * entry of `site.external` ('ext:partners.lifequest', 'ext:courseCheckout'). External addresses are never
 * written in content, so the business changes them in one place.
 */
export const hrefSchema = z
  .string({ error: 'href is required' })
  .refine((v) => /^\/(?!\/)/.test(v) || v.startsWith('#') || v.startsWith('ext:'), {
    message: "href must be an internal path ('/contact'), an anchor ('#contact-form') or 'ext:KEY' from site.external",
  })
  .refine((v) => !v.startsWith('ext:') || externalKeys().includes(v.slice(4)), {
    message: `unknown ext: key; use one of ${externalKeys().join(', ')}`,
  });

/** A call-to-action button or link. `ext:` links open in a new tab. */
export const linkSchema = z.strictObject({
  label: text('link label'),
  href: hrefSchema,
  variant: z.enum(['primary', 'secondary', 'link']).default('primary'),
});

/** A card with a title, a description and an optional icon (features, services, benefits, offerings). */
export const featureSchema = z.strictObject({
  title: text('feature title'),
  description: text('feature description'),
  icon: z.enum(ICON_NAMES, { error: `icon must be one of ${ICON_NAMES.join(', ')}` }).optional(),
  items: z.array(text('feature bullet')).optional(),
  link: linkSchema.optional(),
});

export const stepSchema = z.strictObject({ title: text('step title'), description: text('step description') });

/** A pricing plan. `price` is the display string ('$97', 'Custom', 'from $5,000'). */
export const planSchema = z.strictObject({
  name: text('plan name'),
  price: text('plan price'),
  period: z.string().optional(),
  description: z.string().optional(),
  features: z.array(text('plan feature')).min(1, 'a plan lists at least one feature'),
  cta: linkSchema,
  popular: z.boolean().default(false),
});

export const testimonialSchema = z.strictObject({
  quote: text('testimonial quote'),
  author: text('testimonial author'),
  role: z.string().optional(),
});

export const faqItemSchema = z.strictObject({ question: text('FAQ question'), answer: text('FAQ answer') });

export const statSchema = z.strictObject({ value: text('statistic value'), label: text('statistic label') });

export const cookieSchema = z.strictObject({
  name: text('cookie name'),
  provider: text('cookie provider'),
  purpose: text('cookie purpose'),
  lifetime: text('cookie lifetime'),
  category: z.enum(['Essential', 'Analytics', 'Preferences', 'Marketing']),
});

export const voiceSchema = z.strictObject({
  name: text('voice name'),
  gender: z.enum(['Male', 'Female']),
  language: text('voice language'),
  accent: text('voice accent'),
  /** Featured sample with a play control at the top of the page. */
  sample: z.boolean().default(false),
});

export const quizQuestionSchema = z
  .strictObject({
    question: text('quiz question'),
    subtext: z.string().optional(),
    options: z.array(text('quiz option')).min(2, 'a quiz question needs at least two options'),
    correct: z.number().int().min(0),
    /** Shown after a correct answer. */
    feedback: text('quiz feedback'),
  })
  .refine((q) => q.correct < q.options.length, { message: 'correct must be the index of one of the options', path: ['correct'] });

export const careerSchema = z.strictObject({
  job: text('job'),
  exposure: z.enum(['Low', 'Moderate', 'High']),
  summary: text('career summary'),
  aiHelps: z.array(text('task')).min(1),
  skills: z.array(text('skill')).min(1),
});

export const tagSchema = z.strictObject({ name: text('name'), type: z.string().optional() });

export const useCaseSchema = z.strictObject({ task: text('use case task'), time: text('use case time'), description: text('use case description') });

/** Builds the page schema; `image` is Astro's `image()` helper (or a stand-in in tests). */
export function makePageSchema(image: ImageFactory) {
  const videoSchema = z.strictObject({
    title: text('video title'),
    /** A file under /public ('/media/content/demo.mp4'). */
    src: z.string().regex(/^\/media\//, 'video src must be a file under /media/'),
    poster: image(),
    /** Watermark text over the player (defaults to the brand). */
    watermark: z.boolean().default(true),
  });

  const sections = [
    z.strictObject({
      type: z.literal('hero'),
      eyebrow: z.string().optional(),
      title: text('hero title'),
      subtitle: text('hero subtitle'),
      ctas: z.array(linkSchema).default([]),
      image: image().optional(),
      imageAlt: z.string().optional(),
      /** Autoplaying, muted, looping background clip beside the image (decorative). */
      video: z.string().regex(/^\/media\//).optional(),
      stats: z.array(statSchema).default([]),
      /** Before/after comparison slider in the hero (image services). */
      comparison: z
        .strictObject({
          before: image(),
          after: image(),
          beforeAlt: text('before alt'),
          afterAlt: text('after alt'),
          beforeLabel: z.string().default('Original'),
          afterLabel: z.string().default('Restored'),
        })
        .optional(),
    }),
    z.strictObject({
      type: z.literal('features'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      columns: z.union([z.literal(2), z.literal(3), z.literal(4)]).default(3),
      items: z.array(featureSchema).min(1, 'features needs at least one item'),
    }),
    z.strictObject({
      type: z.literal('list'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      style: z.enum(['check', 'numbered', 'bullet']).default('check'),
      columns: z.union([z.literal(1), z.literal(2)]).default(1),
      items: z.array(text('list item')).min(1),
    }),
    z.strictObject({
      type: z.literal('steps'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      items: z.array(stepSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('pricing'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      note: z.string().optional(),
      plans: z.array(planSchema).min(1, 'pricing needs at least one plan'),
    }),
    z.strictObject({
      type: z.literal('testimonials'),
      id: z.string().optional(),
      title: text('section title'),
      /** Rotate one quote at a time (ms); without it all quotes are listed. */
      interval: z.number().int().positive().optional(),
      comingSoon: z.string().optional(),
      items: z.array(testimonialSchema).default([]),
    }),
    z.strictObject({
      type: z.literal('faq'),
      id: z.string().optional(),
      title: text('section title'),
      items: z.array(faqItemSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('stats'),
      id: z.string().optional(),
      title: z.string().optional(),
      items: z.array(statSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('cta'),
      id: z.string().optional(),
      title: text('section title'),
      text: z.string().optional(),
      ctas: z.array(linkSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('table'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      columns: z.array(z.string()).min(2),
      rows: z.array(z.array(z.string())).min(1),
    }).refine((t) => t.rows.every((r) => r.length === t.columns.length), {
      message: 'every table row needs one cell per column',
      path: ['rows'],
    }),
    z.strictObject({
      type: z.literal('tags'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      items: z.array(tagSchema).min(1),
      link: linkSchema.optional(),
    }),
    z.strictObject({
      type: z.literal('useCases'),
      id: z.string().optional(),
      title: text('section title'),
      items: z.array(useCaseSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('cookies'),
      id: z.string().optional(),
      title: text('section title'),
      items: z.array(cookieSchema).min(1),
    }),
    z.strictObject({ type: z.literal('packages'), id: z.string().optional(), title: text('section title'), intro: z.string().optional() }),
    z.strictObject({
      type: z.literal('videos'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      orientation: z.enum(['landscape', 'vertical']).default('landscape'),
      items: z.array(videoSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('imageToVideo'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      items: z
        .array(z.strictObject({ image: image(), imageAlt: text('image alt'), video: z.string().regex(/^\/media\//), label: text('label'), prompt: text('prompt') }))
        .min(1),
    }),
    z.strictObject({
      type: z.literal('embed'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      /** Which `site.external` frame to show. */
      frame: z.enum(['marketResearchAgent', 'researchWorkspace', 'askAiAssistant']),
      height: z.number().int().positive().default(600),
      fallback: text('embed fallback text'),
    }),
    z.strictObject({ type: z.literal('contactCard'), id: z.string().optional(), title: text('section title'), intro: z.string().optional() }),
    z.strictObject({
      type: z.literal('voices'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      /** 'samples' shows the featured voices with play controls; 'library' the full grid. */
      display: z.enum(['samples', 'library']),
      items: z.array(voiceSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('countdown'),
      id: z.string().optional(),
      title: text('section title'),
      text: z.string().optional(),
      offer: text('offer'),
      ctas: z.array(linkSchema).default([]),
    }),
    z.strictObject({
      type: z.literal('leadForm'),
      id: z.string().optional(),
      title: text('section title'),
      text: z.string().optional(),
      /** Stored with the lead so we know which page it came from. */
      source: text('lead source'),
      button: z.string().default('Get the Free Guide'),
    }),
    z.strictObject({
      type: z.literal('quiz'),
      id: z.string().optional(),
      title: text('section title'),
      questions: z.array(quizQuestionSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('careerCalculator'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      careers: z.array(careerSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('tabs'),
      id: z.string().optional(),
      title: text('section title'),
      items: z
        .array(
          z.strictObject({
            id: z.string().regex(/^[a-z-]+$/, 'tab id: lower-case letters and dashes'),
            label: text('tab label'),
            description: text('tab description'),
            points: z.array(z.string()).default([]),
            image: image().optional(),
            imageAlt: z.string().optional(),
            video: videoSchema.optional(),
          }),
        )
        .min(2),
    }),
    z.strictObject({
      type: z.literal('portfolio'),
      id: z.string().optional(),
      title: text('section title'),
      items: z.array(z.strictObject({ name: text('site name'), description: text('site description'), href: hrefSchema, image: image(), imageAlt: text('image alt') })).min(1),
    }),
    z.strictObject({ type: z.literal('logos'), id: z.string().optional(), title: text('section title'), items: z.array(text('logo name')).min(1) }),
    z.strictObject({
      type: z.literal('media'),
      id: z.string().optional(),
      title: text('section title'),
      intro: z.string().optional(),
      video: videoSchema,
    }),
    /** Where the MDX body goes; without it the body follows the last section. */
    z.strictObject({ type: z.literal('body') }),
  ] as const;

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
