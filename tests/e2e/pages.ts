/**
 * The site's routes as the e2e tests know them: each with its expected document title (before the
 * ' | brand' suffix). The link check and the accessibility pass read the built site's own list (its sitemap).
 */
export const foundationPages: { path: string; title: string }[] = [
  { path: '/', title: 'AI Services for Business' },
  { path: '/contact', title: 'Contact Us' },
  { path: '/about-us', title: 'About Us' },
  { path: '/ai-consulting', title: 'AI Consulting' },
  { path: '/services', title: 'Services' },
];
