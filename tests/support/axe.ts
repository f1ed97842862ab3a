import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * The serious and critical axe violations of `page` (or of the part `include` selects), one line each:
 * rule id and the elements it found. Only violations are computed: axe then skips describing every
 * passing node. Legacy mode runs axe in the page itself; the default opens a blank page per call to merge
 * results from frames of other origins, which doubled the time of a pass over the site. Ours have none
 * that are ours to check: an external embed is the provider's page.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
