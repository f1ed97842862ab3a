/** Whether the visitor asked for less motion (no smooth scrolling, no autoplay); false outside a browser. */
export const prefersReducedMotion = (): boolean =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
