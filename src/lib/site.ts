import { EXAMPLE_SITE_URL } from './deploy-context';

/**
 * One typed site configuration. Values here are clearly fictional examples (example.com, 555 numbers);
 * a business owner edits this file, or sets the PUBLIC_* variables listed in .env.example for the
 * embeds, to make the site theirs. An embed whose URL is empty renders a first-party fallback instead
 * of a broken frame.
 */
export interface PhoneLine {
  label: string;
  number: string;
  /** What the line is for: general, support (24/7), canada, spanish, tech, text. */
  kind: 'general' | 'support' | 'canada' | 'spanish' | 'tech' | 'text';
}

/** The link a phone line opens: `sms:` for the text line, `tel:` otherwise, the number without spaces or dashes. */
export function phoneHref(line: Pick<PhoneLine, 'number' | 'kind'>): string {
  return `${line.kind === 'text' ? 'sms' : 'tel'}:${line.number.replace(/[^\d+]/g, '')}`;
}

const env = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const fromEnv = (name: string, fallback = ''): string => (env[name] ?? '').trim() || fallback;

export const site = {
  brand: 'Lumora AI',
  // Astro's SITE is astro.config.mjs's `site` (PUBLIC_SITE_URL, else Netlify's URL); code outside Astro sees PUBLIC_SITE_URL.
  url: fromEnv('SITE', fromEnv('PUBLIC_SITE_URL', EXAMPLE_SITE_URL)),
  description:
    'AI consulting, video production, automation, AI agents and photo restoration for businesses and families.',
  email: 'hello@lumora-ai.example.com',
  privacyEmail: 'privacy@lumora-ai.example.com',
  legalEmail: 'legal@lumora-ai.example.com',
  phones: [
    { label: 'General', number: '+1 (555) 010-2000', kind: 'general' },
    { label: '24/7 Support', number: '+1 (555) 010-2424', kind: 'support' },
    { label: 'Canada', number: '+1 (555) 010-3300', kind: 'canada' },
    { label: 'Spanish-speaking', number: '+1 (555) 010-4400', kind: 'spanish' },
    { label: 'Tech Support', number: '+1 (555) 010-5500', kind: 'tech' },
    { label: 'Text for info', number: '+1 (555) 010-6600', kind: 'text' },
  ] satisfies PhoneLine[],
  address: { street: '100 Example Avenue, Suite 500', city: 'Springfield', region: 'IL', postcode: '62701', country: 'USA' },
  hours: {
    footer: ['Mon-Fri: 9AM-6PM', 'Sat: 10AM-2PM'],
    contact: ['Mon-Fri: 9:00-18:00', 'Sat: 10:00-14:00', 'Sun: Closed'],
  },
  social: [
    { label: 'Facebook', href: 'https://facebook.example.com/lumora-ai' },
    { label: 'X (Twitter)', href: 'https://x.example.com/lumora_ai' },
    { label: 'LinkedIn', href: 'https://linkedin.example.com/company/lumora-ai' },
    { label: 'YouTube', href: 'https://youtube.example.com/@lumora-ai' },
  ],
  /** External destinations and embeds. Empty string = not configured = tidy fallback. */
  external: {
    newsletterForm: fromEnv('PUBLIC_NEWSLETTER_FORM_URL'),
    bookingCalendar: fromEnv('PUBLIC_BOOKING_CALENDAR_URL'),
    contactForm: fromEnv('PUBLIC_CONTACT_FORM_URL'),
    chatWidgetAgentId: fromEnv('PUBLIC_CHAT_WIDGET_AGENT_ID'),
    chatWidgetScript: fromEnv('PUBLIC_CHAT_WIDGET_SCRIPT_URL'),
    newsSite: fromEnv('PUBLIC_NEWS_SITE_URL', 'https://news.lumora-ai.example.com'),
    aiTeacherSite: fromEnv('PUBLIC_AI_TEACHER_URL', 'https://learn.lumora-ai.example.com'),
    /** Empty: the blog lives on this site (/blog/{slug}); set: cards and RSS items link to {URL}/{slug}. */
    blog: fromEnv('PUBLIC_EXTERNAL_BLOG_URL'),
    marketResearchAgent: fromEnv('PUBLIC_MARKET_RESEARCH_AGENT_URL'),
    researchWorkspace: fromEnv('PUBLIC_RESEARCH_WORKSPACE_URL'),
    askAiAssistant: fromEnv('PUBLIC_ASK_AI_ASSISTANT_URL'),
    courseCheckout: fromEnv('PUBLIC_COURSE_CHECKOUT_URL', 'https://pay.lumora-ai.example.com/course'),
    consultationCheckout: fromEnv('PUBLIC_CONSULTATION_CHECKOUT_URL', 'https://pay.lumora-ai.example.com/consultation'),
    lifequestCheckout: fromEnv('PUBLIC_LIFEQUEST_CHECKOUT_URL', 'https://pay.lumora-ai.example.com/lifequest'),
    partners: {
      lifequest: 'https://lifequest.example.com',
      lawyerAssistant: 'https://ai-lawyer.example.com',
      ailaLawyers: 'https://aila-lawyers.example.com',
      doctors: 'https://ai-doctors.example.com',
      vets: 'https://ai-vets.example.com',
      synapsecore: 'https://synapsecore.example.com',
      superagent: 'https://superagent.example.com',
      superagentIntegrations: 'https://superagent.example.com/integrations',
      vectorVault: 'https://vectorvault.example.com',
      gohighlevel: 'https://gohighlevel.example.com/trial',
    },
  },
} as const;

export type Site = typeof site;

export function pageTitle(title?: string): string {
  return title ? `${title} | ${site.brand}` : site.brand;
}
