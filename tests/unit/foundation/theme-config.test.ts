import { describe, expect, it } from 'vitest';
import { THEME_INIT_SCRIPT, applyTheme, nextTheme, parseTheme } from '../../../src/lib/theme';
import { site, pageTitle } from '../../../src/lib/site';
import { services } from '../../../src/lib/services';
import { serviceLinks, resourceLinks, isCurrent } from '../../../src/lib/navigation';
import { makeParticles, seeded } from '../../../src/lib/particles';
import { IMAGE_PACKAGES } from '../../../src/lib/catalog';

describe('theme', () => {
  it('defaults to dark and toggles', () => {
    expect(parseTheme(null)).toBe('dark');
    expect(parseTheme('garbage')).toBe('dark');
    expect(parseTheme('light')).toBe('light');
    expect(nextTheme('dark')).toBe('light');
    expect(nextTheme('light')).toBe('dark');
  });

  it('applies light-mode on the root only for light', () => {
    const classes = new Set<string>();
    const root = { classList: { toggle: (c: string, on: boolean) => (on ? classes.add(c) : classes.delete(c)) } } as unknown as { classList: DOMTokenList };
    applyTheme(root, 'light');
    expect(classes.has('light-mode')).toBe(true);
    applyTheme(root, 'dark');
    expect(classes.has('light-mode')).toBe(false);
  });

  it('the inline start-up script stores dark when nothing is saved and applies a saved light', () => {
    const run = (saved: string | null) => {
      const store = new Map<string, string>(saved ? [['theme', saved]] : []);
      const classes = new Set<string>();
      const localStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) };
      const document = { documentElement: { classList: { add: (c: string) => classes.add(c) } } };
      new Function('localStorage', 'document', THEME_INIT_SCRIPT)(localStorage, document);
      return { stored: store.get('theme'), light: classes.has('light-mode') };
    };
    expect(run(null)).toEqual({ stored: 'dark', light: false });
    expect(run('light')).toEqual({ stored: 'light', light: true });
    expect(run('dark')).toEqual({ stored: 'dark', light: false });
  });
});

describe('site configuration', () => {
  it('uses clearly fictional contact values', () => {
    expect(site.email).toMatch(/@[\w.-]*example\.com$/);
    for (const phone of site.phones) expect(phone.number).toMatch(/555/);
    expect(site.phones.map((p) => p.label)).toEqual(
      expect.arrayContaining(['24/7 Support', 'Canada', 'Spanish-speaking', 'Tech Support']),
    );
    expect(pageTitle('Contact Us')).toBe(`Contact Us | ${site.brand}`);
  });

  it('lists 24 services in the sidebar order with their badges', () => {
    expect(services).toHaveLength(24);
    expect(serviceLinks.find((l) => l.href === '/image-video-transformation')).toMatchObject({ isBeta: true });
    expect(serviceLinks.filter((l) => l.isNew).map((l) => l.href)).toEqual([
      '/llm-fine-tuning', '/ai-agent-hub', '/ai-doctors-second-opinion', '/ai-vets-second-opinion', '/all-life-with-ai',
      '/lifequest-ai', '/aila-lawyers', '/ai-lawyer-assistant', '/synapsecore-super-agent',
    ]);
    expect(resourceLinks.filter((l) => l.isExternal)).toHaveLength(2);
    expect(new Set(services.map((s) => s.href)).size).toBe(24);
  });

  it('matches the current route', () => {
    expect(isCurrent('/contact', '/contact')).toBe(true);
    expect(isCurrent('/contact', '/contact/')).toBe(true);
    expect(isCurrent('/', '/contact')).toBe(false);
    // A file-format build renders the home page as /index.html.
    expect(isCurrent('/', '/')).toBe(true);
    expect(isCurrent('/', '/index.html')).toBe(true);
    expect(isCurrent('/', '/index')).toBe(true);
    expect(isCurrent('/contact', '/index.html')).toBe(false);
    expect(isCurrent('/blog', '/blog.html')).toBe(true);
    expect(isCurrent('/blog', '/blog/index.html')).toBe(true);
  });

  it('offers the four image packages, Premium highlighted', () => {
    expect(IMAGE_PACKAGES.map((p) => [p.id, p.isPopular])).toEqual([
      ['basic-restoration', false], ['premium-restoration', true], ['ai-creation', false], ['family-package', false],
    ]);
  });
});

describe('particles', () => {
  it('makes 40 particles of 1-5 px with delays up to 5 s', () => {
    const ps = makeParticles(undefined, seeded(1));
    expect(ps).toHaveLength(40);
    for (const p of ps) {
      expect(p.size).toBeGreaterThanOrEqual(1);
      expect(p.size).toBeLessThanOrEqual(5);
      expect(p.delay).toBeLessThanOrEqual(5);
    }
    expect(makeParticles(undefined, seeded(1))).toEqual(ps);
  });
});
