import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { externalKeys, hrefSchema, makeBlogSchema, makePageSchema } from '../../../src/content/schemas';

// Astro's image() is replaced by a plain string schema: the tests check structure, not files.
const image = () => z.string();
const pageSchema = makePageSchema(image);
const blogSchema = makeBlogSchema(image);

const validPage = {
  title: 'Test Page',
  description: 'A test page with a description long enough to pass the length check.',
  sections: [
    { type: 'hero', title: 'Hello', subtitle: 'World', ctas: [{ label: 'Go', href: '/contact' }] },
    { type: 'pricing', title: 'Pricing', plans: [{ name: 'Pro', price: '$49', features: ['5M tokens'], cta: { label: 'Buy', href: 'ext:partners.superagent' } }] },
    { type: 'faq', title: 'FAQ', items: [{ question: 'Q?', answer: 'A.' }] },
  ],
};

/** The readable messages zod gives for an input, as 'path: message'. */
function issues(result: { success: boolean; error?: z.ZodError }): string[] {
  return result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('page schema', () => {
  it('accepts a valid page and fills defaults', () => {
    const parsed = pageSchema.parse(validPage);
    const pricing = parsed.sections[1] as Extract<(typeof parsed.sections)[number], { type: 'pricing' }>;
    expect(pricing.plans[0]!.popular).toBe(false);
    expect(pricing.plans[0]!.cta.variant).toBe('primary');
  });

  it('names a missing field of a plan', () => {
    const page = structuredClone(validPage);
    delete (page.sections[1] as { plans: Record<string, unknown>[] }).plans[0]!.price;
    expect(issues(pageSchema.safeParse(page))).toEqual(['sections.1.plans.0.price: plan price is required (text)']);
  });

  it('rejects an unknown section type', () => {
    const page = { ...validPage, sections: [...validPage.sections, { type: 'carousel', items: [] }] };
    const messages = issues(pageSchema.safeParse(page));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^sections\.3/);
  });

  it('rejects a misspelt field (typos do not pass silently)', () => {
    const page = structuredClone(validPage);
    (page.sections[2] as { items: Record<string, unknown>[] }).items[0]!.anwser = 'typo';
    expect(issues(pageSchema.safeParse(page)).join()).toContain('anwser');
  });

  it('rejects hard-coded external URLs and unknown ext: keys', () => {
    expect(hrefSchema.safeParse('/contact').success).toBe(true);
    expect(hrefSchema.safeParse('#contact-form').success).toBe(true);
    expect(hrefSchema.safeParse('ext:partners.vets').success).toBe(true);
    expect(issues(hrefSchema.safeParse('https://example.com'))[0]).toContain("'ext:KEY' from site.external");
    expect(issues(hrefSchema.safeParse('ext:partners.nope'))[0]).toContain('unknown ext: key');
    expect(externalKeys()).toContain('courseCheckout');
  });

  it('requires exactly one source for the <h1>', () => {
    const noHeading = { ...validPage, sections: validPage.sections.slice(1) };
    expect(issues(pageSchema.safeParse(noHeading))).toEqual(['heading: a page needs a heading or a hero section (its <h1>)']);
    expect(issues(pageSchema.safeParse({ ...validPage, heading: 'Twice' }))).toEqual([
      'heading: give either a hero section or heading, not both (one <h1> per page)',
    ]);
  });

  it('checks quiz answers, table shapes, icons and dates', () => {
    const quiz = { type: 'quiz', title: 'Quiz', questions: [{ question: 'Q', options: ['a', 'b'], correct: 2, feedback: 'ok' }] };
    expect(issues(pageSchema.safeParse({ ...validPage, sections: [...validPage.sections, quiz] }))).toEqual([
      'sections.3.questions.0.correct: correct must be the index of one of the options',
    ]);
    const table = { type: 'table', title: 'T', columns: ['a', 'b'], rows: [['1']] };
    expect(issues(pageSchema.safeParse({ ...validPage, sections: [...validPage.sections, table] }))).toEqual([
      'sections.3.rows: every table row needs one cell per column',
    ]);
    const features = { type: 'features', title: 'F', items: [{ title: 't', description: 'd', icon: 'unicorn' }] };
    expect(issues(pageSchema.safeParse({ ...validPage, sections: [...validPage.sections, features] }))[0]).toMatch(/^sections\.3\.items\.0\.icon: icon must be one of/);
    expect(issues(pageSchema.safeParse({ ...validPage, lastUpdated: '2025-02-24' }))).toEqual(['lastUpdated: lastUpdated must be DD-MM-YYYY']);
  });
});

describe('blog schema', () => {
  const post = { title: 'Post', excerpt: 'An excerpt that is long enough.', date: '2025-02-18', image: 'x.png', imageAlt: 'x', category: 'Automation' };

  it('coerces the date', () => {
    expect(blogSchema.parse(post).date).toBeInstanceOf(Date);
  });

  it('rejects a bad date, an unknown category and a missing image', () => {
    expect(issues(blogSchema.safeParse({ ...post, date: 'soon' }))).toEqual(['date: date must be a date (YYYY-MM-DD)']);
    expect(issues(blogSchema.safeParse({ ...post, category: 'Gossip' }))[0]).toMatch(/^category:/);
    const { image: _image, ...noImage } = post;
    expect(issues(blogSchema.safeParse(noImage))[0]).toMatch(/^image:/);
  });
});
