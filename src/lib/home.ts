import type { IconKey } from '../components/ui/Icon.astro';

/**
 * Home page content that is not the services list. A promo card with `pricedByPage` shows its page's price
 * (src/content/plan-price.ts) as its label instead of `label`: prices are written only on the product's page.
 */
export const promoCards = [
  { href: '/vector-vault', title: 'Vector Vault', label: 'NEW', description: 'Turn your documents into queryable memory for AI agents.', icon: 'database' },
  { href: '/llm-fine-tuning', title: 'LLM Fine-Tuning', label: 'NEW', description: 'A model that speaks your industry, trained on your data.', icon: 'brain' },
  { href: '/ai-doctors-second-opinion', title: "AI Doctor's Second Opinion", label: 'NEW', description: 'Understand your diagnosis before you decide.', icon: 'stethoscope' },
  { href: '/aila-lawyers', title: 'AILA Lawyers', label: 'NEW', description: 'Case-based legal help for one flat fee per case.', icon: 'scale' },
  { href: '/lifequest-ai', title: 'LifeQuest AI', label: 'NEW', pricedByPage: true, description: 'Your goals, broken into daily wins by an AI coach.', icon: 'target' },
] as const satisfies readonly { href: string; title: string; label: string; pricedByPage?: true; description: string; icon: IconKey }[];

export const benefits = [
  { title: 'Practical, not theoretical', description: 'Every engagement ends with something running in your business, not a slide deck.', icon: 'zap' },
  { title: 'Senior specialists', description: 'Consultants, engineers and producers who have shipped AI projects across industries.', icon: 'award' },
  { title: 'Privacy by design', description: 'Your data stays yours: minimal collection, encrypted storage and clear retention.', icon: 'shield' },
  { title: 'Measurable results', description: 'We agree the numbers up front (hours saved, leads won) and report against them.', icon: 'trending' },
  { title: 'One partner, many skills', description: 'Strategy, automation, video, websites and agents from one accountable team.', icon: 'users' },
  { title: 'Support when you need it', description: '24/7 support line and a named contact for every project.', icon: 'phone' },
] as const satisfies readonly { title: string; description: string; icon: IconKey }[];

export interface Testimonial {
  id: string;
  quote: string;
  name: string;
  title: string;
  /** Initials stand in for a photo: no remote images, nothing to break offline. */
  initials: string;
}

export const testimonials: readonly Testimonial[] = [
  { id: 't1', quote: 'They automated our intake and follow-ups in three weeks. Our team got back ten hours a week and response times dropped from a day to minutes.', name: 'Maria Delgado', title: 'Operations Director, Brightside Dental Group', initials: 'MD' },
  { id: 't2', quote: 'The AI video series outperformed our agency-made ads on every metric, at a fraction of the cost and turnaround.', name: 'James Whitfield', title: 'Marketing Lead, Northwind Outdoor', initials: 'JW' },
  { id: 't3', quote: 'Our grandmother’s wedding photo came back sharp and in colour. The whole family cried. Worth every cent.', name: 'Priya Raman', title: 'Family historian', initials: 'PR' },
];

/** Testimonial rotation interval. */
export const TESTIMONIAL_INTERVAL_MS = 5000;
