import { z } from 'zod';
import { DEFAULT_GUIDE, GUIDE_SLUG } from '../lib/guides';
import {
  careerSchema, cookieSchema, faqItemSchema, featureSchema, hrefSchema, linkSchema, planSchema, quizQuestionSchema,
  statSchema, stepSchema, tagSchema, testimonialSchema, text, useCaseSchema, voiceSchema, type ImageFactory,
} from './fields';

// The sections a page is made of, one named schema each (the `type` field tells them apart). Titled
// sections share `titled` (an optional anchor id and the <h2>), most add an `intro` paragraph. Sections
// with pictures take Astro's `image()` helper (a stand-in in tests).

const id = z.string().optional();
/** An anchor id and the section's <h2>. */
const titled = { id, title: text('section title') };
/** `titled` plus the paragraph under the heading. */
const introduced = { ...titled, intro: z.string().optional() };

/** A video file with its poster; the watermarked player shows it. */
export const videoSchema = (image: ImageFactory) =>
  z.strictObject({
    title: text('video title'),
    /** A file under /public ('/media/content/demo.mp4'). */
    src: z.string().regex(/^\/media\//, 'video src must be a file under /media/'),
    poster: image(),
    /** Watermark text over the player (defaults to the brand). */
    watermark: z.boolean().default(true),
  });

export const heroSection = (image: ImageFactory) =>
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
  });

export const featuresSection = z.strictObject({
  type: z.literal('features'),
  ...introduced,
  columns: z.union([z.literal(2), z.literal(3), z.literal(4)]).default(3),
  items: z.array(featureSchema).min(1, 'features needs at least one item'),
});

export const listSection = z.strictObject({
  type: z.literal('list'),
  ...introduced,
  style: z.enum(['check', 'numbered', 'bullet']).default('check'),
  columns: z.union([z.literal(1), z.literal(2)]).default(1),
  items: z.array(text('list item')).min(1),
});

export const stepsSection = z.strictObject({
  type: z.literal('steps'),
  ...introduced,
  items: z.array(stepSchema).min(1),
});

export const pricingSection = z.strictObject({
  type: z.literal('pricing'),
  ...introduced,
  note: z.string().optional(),
  plans: z.array(planSchema).min(1, 'pricing needs at least one plan'),
});

export const testimonialsSection = z.strictObject({
  type: z.literal('testimonials'),
  ...titled,
  /** Rotate one quote at a time (ms); without it all quotes are listed. */
  interval: z.number().int().positive().optional(),
  comingSoon: z.string().optional(),
  items: z.array(testimonialSchema).default([]),
});

export const faqSection = z.strictObject({
  type: z.literal('faq'),
  ...titled,
  items: z.array(faqItemSchema).min(1),
});

export const statsSection = z.strictObject({
  type: z.literal('stats'),
  id,
  title: z.string().optional(),
  items: z.array(statSchema).min(1),
});

export const ctaSection = z.strictObject({
  type: z.literal('cta'),
  ...titled,
  text: z.string().optional(),
  ctas: z.array(linkSchema).min(1),
});

export const tableSection = z.strictObject({
  type: z.literal('table'),
  ...introduced,
  columns: z.array(z.string()).min(2),
  rows: z.array(z.array(z.string())).min(1),
}).refine((t) => t.rows.every((r) => r.length === t.columns.length), {
  message: 'every table row needs one cell per column',
  path: ['rows'],
});

export const tagsSection = z.strictObject({
  type: z.literal('tags'),
  ...introduced,
  items: z.array(tagSchema).min(1),
  link: linkSchema.optional(),
});

export const useCasesSection = z.strictObject({
  type: z.literal('useCases'),
  ...titled,
  items: z.array(useCaseSchema).min(1),
});

export const cookiesSection = z.strictObject({
  type: z.literal('cookies'),
  ...titled,
  items: z.array(cookieSchema).min(1),
});

export const packagesSection = z.strictObject({ type: z.literal('packages'), ...introduced });

export const videosSection = (image: ImageFactory) =>
  z.strictObject({
    type: z.literal('videos'),
    ...introduced,
    orientation: z.enum(['landscape', 'vertical']).default('landscape'),
    items: z.array(videoSchema(image)).min(1),
  });

export const imageToVideoSection = (image: ImageFactory) =>
  z.strictObject({
    type: z.literal('imageToVideo'),
    ...introduced,
    items: z
      .array(z.strictObject({ image: image(), imageAlt: text('image alt'), video: z.string().regex(/^\/media\//), label: text('label'), prompt: text('prompt') }))
      .min(1),
  });

export const embedSection = z.strictObject({
  type: z.literal('embed'),
  ...introduced,
  /** Which `site.external` frame to show. */
  frame: z.enum(['marketResearchAgent', 'researchWorkspace', 'askAiAssistant']),
  height: z.number().int().positive().default(600),
  fallback: text('embed fallback text'),
});

export const contactCardSection = z.strictObject({ type: z.literal('contactCard'), ...introduced });

export const voicesSection = z.strictObject({
  type: z.literal('voices'),
  ...introduced,
  /** 'samples' shows the featured voices with play controls; 'library' the full grid. */
  display: z.enum(['samples', 'library']),
  items: z.array(voiceSchema).min(1),
});

export const countdownSection = z.strictObject({
  type: z.literal('countdown'),
  ...titled,
  text: z.string().optional(),
  offer: text('offer'),
  ctas: z.array(linkSchema).default([]),
});

export const leadFormSection = z.strictObject({
  type: z.literal('leadForm'),
  ...titled,
  text: z.string().optional(),
  /** Stored with the lead so we know which page it came from. */
  source: text('lead source'),
  /** The free guide the form e-mails: the file name of a guide in src/content/guides (the build checks it exists). */
  guide: z.string().regex(GUIDE_SLUG, 'guide must be the file name of a guide in src/content/guides (lowercase words joined by hyphens)').default(DEFAULT_GUIDE),
  button: z.string().default('Get the Free Guide'),
});

export const quizSection = z.strictObject({
  type: z.literal('quiz'),
  ...titled,
  questions: z.array(quizQuestionSchema).min(1),
});

export const careerCalculatorSection = z.strictObject({
  type: z.literal('careerCalculator'),
  ...introduced,
  careers: z.array(careerSchema).min(1),
});

export const tabsSection = (image: ImageFactory) =>
  z.strictObject({
    type: z.literal('tabs'),
    ...titled,
    items: z
      .array(
        z.strictObject({
          id: z.string().regex(/^[a-z-]+$/, 'tab id: lower-case letters and dashes'),
          label: text('tab label'),
          description: text('tab description'),
          points: z.array(z.string()).default([]),
          image: image().optional(),
          imageAlt: z.string().optional(),
          video: videoSchema(image).optional(),
        }),
      )
      .min(2),
  });

export const portfolioSection = (image: ImageFactory) =>
  z.strictObject({
    type: z.literal('portfolio'),
    ...titled,
    items: z.array(z.strictObject({ name: text('site name'), description: text('site description'), href: hrefSchema, image: image(), imageAlt: text('image alt') })).min(1),
  });

export const logosSection = z.strictObject({ type: z.literal('logos'), ...titled, items: z.array(text('logo name')).min(1) });

export const mediaSection = (image: ImageFactory) =>
  z.strictObject({
    type: z.literal('media'),
    ...introduced,
    video: videoSchema(image),
  });

/** Where the MDX body goes; without it the body follows the last section. */
export const bodySection = z.strictObject({ type: z.literal('body') });

/** Every section schema, for the page's discriminated union (order is only for reading). */
export const pageSections = (image: ImageFactory) =>
  [
    heroSection(image),
    featuresSection,
    listSection,
    stepsSection,
    pricingSection,
    testimonialsSection,
    faqSection,
    statsSection,
    ctaSection,
    tableSection,
    tagsSection,
    useCasesSection,
    cookiesSection,
    packagesSection,
    videosSection(image),
    imageToVideoSection(image),
    embedSection,
    contactCardSection,
    voicesSection,
    countdownSection,
    leadFormSection,
    quizSection,
    careerCalculatorSection,
    tabsSection(image),
    portfolioSection(image),
    logosSection,
    mediaSection(image),
    bodySection,
  ] as const;
