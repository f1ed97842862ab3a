/**
 * A product's price as its own page states it. A partner product's price is written once, in the `pricing`
 * section of its page (src/content/pages/<slug>.mdx, editable at /admin); cards elsewhere (the home page's
 * promo cards) show it from there, so a price change is one edit. Pure, so unit tests call it without Astro.
 */
type Plan = { price: string; period?: string; popular?: boolean };
type Section = { type: string; plans?: Plan[] };

/** '$14.99/month' from the page's pricing section: its popular plan, else its first. Null without one. */
export function planPriceLabel(sections: readonly Section[]): string | null {
  const plans = sections.find((s) => s.type === 'pricing' && s.plans?.length)?.plans;
  if (!plans) return null;
  const plan = plans.find((p) => p.popular) ?? plans[0]!;
  return `${plan.price}${plan.period ?? ''}`;
}
