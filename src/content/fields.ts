import { z } from 'zod';
import { site } from '../lib/site';

// The fields content is made of (text, links, cards, plans, …): shared by the section schemas (sections.ts)
// and re-exported by schemas.ts.

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

export const text = (what: string) => z.string({ error: `${what} is required (text)` }).trim().min(1, `${what} must not be empty`);

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
