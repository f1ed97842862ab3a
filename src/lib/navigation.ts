import { site } from './site';
import { services, type IconName } from './services';

/** Navigation as data: the sidebar and footer read these lists, no link is hard-coded in a component. */
export interface NavLink {
  href: string;
  label: string;
  icon?: IconName;
  isNew?: boolean;
  isBeta?: boolean;
  isExternal?: boolean;
}

export const mainLinks: readonly NavLink[] = [
  { href: '/', label: 'Home', icon: 'sparkles' },
  { href: '/about-us', label: 'About Us', icon: 'heart' },
  { href: '/ask-ai', label: 'Ask AI', icon: 'messages' },
  { href: '/blog', label: 'Blog', icon: 'pen' },
  { href: '/contact', label: 'Contact', icon: 'phone' },
];

export const serviceLinks: readonly NavLink[] = services.map((s) => ({
  href: s.href,
  label: s.navLabel,
  icon: s.icon,
  isNew: s.isNew,
  isBeta: s.isBeta,
}));

export const resourceLinks: readonly NavLink[] = [
  { href: '/vector-vault', label: 'Vector Vault', icon: 'database', isNew: true },
  { href: '/ai-superagent', label: 'AI Superagent', icon: 'bot', isNew: true },
  { href: site.external.newsSite, label: 'Latest AI News', icon: 'sparkles', isExternal: true },
  { href: site.external.aiTeacherSite, label: 'AI Teacher', icon: 'graduation', isExternal: true },
];

export const footerServiceLinks: readonly NavLink[] = [
  { href: '/video-production', label: 'AI Video Creation' },
  { href: '/ai-script-generation', label: 'AI Script Generation' },
  { href: '/ai-voiceovers', label: 'AI Voiceovers' },
  { href: '/lifequest-ai', label: 'LifeQuest AI', isNew: true },
];

export const legalLinks: readonly NavLink[] = [
  { href: '/privacy-policy', label: 'Privacy Policy' },
  { href: '/terms-of-service', label: 'Terms of Service' },
  { href: '/cookie-policy', label: 'Cookie Policy' },
];

/** True when `href` is the page being rendered (for aria-current). */
export function isCurrent(href: string, pathname: string): boolean {
  // Static builds render `/` as `/index.html`, so `index` is the folder's own page.
  const clean = (p: string) => p.replace(/\.html$/, '').replace(/(^|\/)index$/, '').replace(/\/+$/, '') || '/';
  return clean(href) === clean(pathname);
}
