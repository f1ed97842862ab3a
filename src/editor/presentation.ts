/**
 * How the editor presents the schemas' fields: labels, hints and which fields get a multi-line box. Only
 * wording lives here; names, limits, required fields and choices come from the zod schemas
 * (`editor-fields.ts`). tests/unit/editor/schema-coverage.test.ts fails when a name below no longer exists
 * in the schemas, or a section type has no label.
 */

/** The section picker's name for each section type of src/content/sections.ts. */
export const SECTION_LABELS: Record<string, string> = {
  hero: 'Hero (title, buttons, image)',
  features: 'Feature cards',
  list: 'List',
  steps: 'Steps',
  pricing: 'Pricing plans',
  testimonials: 'Testimonials',
  faq: 'FAQ',
  stats: 'Statistics',
  cta: 'Call to action',
  table: 'Table',
  tags: 'Tags',
  useCases: 'Use cases',
  cookies: 'Cookie table',
  packages: 'Image packages (from the catalog)',
  videos: 'Videos',
  media: 'Single video',
  imageToVideo: 'Image to video examples',
  embed: 'Embedded tool',
  contactCard: 'Contact card',
  voices: 'Voices',
  countdown: 'Countdown offer',
  leadForm: 'Lead form',
  quiz: 'Quiz',
  careerCalculator: 'Career calculator',
  tabs: 'Tabs',
  portfolio: 'Portfolio',
  logos: 'Logos',
  body: 'Page text goes here (the body below)',
};

/** Labels that the field name does not spell well on its own (others: 'imageAlt' → 'Image alt'). */
export const FIELD_LABELS: Record<string, string> = {
  ctas: 'Buttons',
  cta: 'Button',
  href: 'Link',
  id: 'Anchor id',
  imageAlt: 'Image description (alt text)',
  beforeAlt: 'Before image description (alt text)',
  afterAlt: 'After image description (alt text)',
  headingDescription: 'Text under the heading',
  aiHelps: 'Tasks AI helps with',
};

/** Hints under a field, by field name. */
export const FIELD_HINTS: Record<string, string> = {
  heading: "The page's main heading. Give either this or a Hero section, not both.",
  lastUpdated: 'Legal pages: DD-MM-YYYY.',
  id: 'Optional anchor, so a link can jump here (/page#id).',
  href: "A page of this site (/contact), an anchor (#contact-form) or ext:KEY for an address kept in src/lib/site.ts (ext:partners.lifequest).",
  image: 'PNG, JPEG or WebP; resized and converted when the site is built.',
  video: 'A file under /media/, e.g. /media/content/demo.mp4 (videos live in public/media/content/).',
  src: 'A file under /media/, e.g. /media/content/demo.mp4 (videos live in public/media/content/).',
  interval: 'Milliseconds between quotes for a rotating carousel; leave empty to list all quotes.',
  correct: 'Number of the correct option, counting from 0.',
  rows: 'One cell per column in every row.',
  source: 'Stored with each lead, to tell which page it came from.',
  guide: 'The free guide this form e-mails: the file name of an entry in Free guides (e.g. prepare-old-photos-for-restoration).',
  date: 'Publication date; orders the posts, newest first.',
  updated: 'Only for a real revision; not before the publication date (a guide: the date of its last revision).',
  excerpt: 'Card text, search-result text and RSS summary.',
};

/** Fields edited in a multi-line box rather than a one-line input. */
export const LONG_TEXT_FIELDS = new Set([
  'description', 'intro', 'subtitle', 'text', 'answer', 'quote', 'summary', 'excerpt', 'feedback', 'fallback',
  'prompt', 'headingDescription', 'note', 'comingSoon', 'purpose', 'subtext', 'offer',
]);

/** 'imageAlt' → 'Image alt'. */
export function labelFor(name: string): string {
  if (FIELD_LABELS[name]) return FIELD_LABELS[name];
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
