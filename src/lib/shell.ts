import { $cartCount } from './cart-state';
import { prefersReducedMotion } from './reduced-motion';
import { THEME_STORAGE_KEY, applyTheme, nextTheme, parseTheme } from './theme';

/**
 * The shell's small vanilla script (no framework): theme toggle, the small-screen drawer, the
 * newsletter link, the cart badge and the footer year. Everything else on a page without islands is HTML and CSS.
 */
export function initShell(doc: Document = document): void {
  initTheme(doc);
  initDrawer(doc);
  initCartBadge(doc);
  initFooterYear(doc);
}

/** The copyright year from the visitor's clock; the build year stays in the HTML for readers without JS. */
function initFooterYear(doc: Document): void {
  const year = String(new Date().getFullYear());
  doc.querySelectorAll<HTMLElement>('[data-year]').forEach((el) => {
    if (el.textContent !== year) el.textContent = year;
  });
}

function initTheme(doc: Document): void {
  const root = doc.documentElement;
  const button = doc.querySelector<HTMLButtonElement>('[data-theme-toggle]');
  const sync = () => button?.setAttribute('aria-pressed', String(root.classList.contains('light-mode')));
  sync();
  button?.addEventListener('click', () => {
    const theme = nextTheme(root.classList.contains('light-mode') ? 'light' : 'dark');
    applyTheme(root, theme);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    sync();
  });
  // Another tab changed the theme.
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) {
      applyTheme(root, parseTheme(event.newValue));
      sync();
    }
  });
}

function initDrawer(doc: Document): void {
  const drawer = doc.querySelector<HTMLElement>('[data-drawer]');
  const backdrop = doc.querySelector<HTMLElement>('[data-drawer-backdrop]');
  const openButton = doc.querySelector<HTMLButtonElement>('[data-drawer-open]');
  const closeButton = doc.querySelector<HTMLButtonElement>('[data-drawer-close]');
  if (!drawer || !backdrop || !openButton || !closeButton) return;

  const isOpen = () => drawer.dataset.open === 'true';
  const setOpen = (open: boolean, restoreFocus = true) => {
    drawer.dataset.open = String(open);
    backdrop.classList.toggle('hidden', !open);
    openButton.setAttribute('aria-expanded', String(open));
    doc.body.classList.toggle('overflow-hidden', open);
    if (open) {
      drawer.setAttribute('role', 'dialog');
      drawer.setAttribute('aria-modal', 'true');
      closeButton.focus();
    } else {
      drawer.removeAttribute('role');
      drawer.removeAttribute('aria-modal');
      if (restoreFocus) openButton.focus();
    }
  };

  openButton.addEventListener('click', () => setOpen(true));
  closeButton.addEventListener('click', () => setOpen(false));
  backdrop.addEventListener('click', () => setOpen(false));
  doc.addEventListener('keydown', (event) => {
    if (!isOpen()) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'Tab') {
      trapFocus(drawer, event);
    }
  });
  // Any navigation from inside the drawer closes it (same-page anchors included).
  drawer.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a');
    if (link && isOpen()) setOpen(false, false);
  });
  // Newsletter: smooth scroll to the footer form on this page instead of navigating away.
  doc.querySelectorAll<HTMLAnchorElement>('[data-newsletter-link]').forEach((link) =>
    link.addEventListener('click', (event) => {
      const target = doc.getElementById('newsletter-section');
      if (!target) return;
      event.preventDefault();
      target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
      target.querySelector<HTMLElement>('input:not([type=hidden]):not([tabindex="-1"]), iframe')?.focus({ preventScroll: true });
    }),
  );
  // A page restored from the back/forward cache must not come back with the drawer open.
  window.addEventListener('pageshow', () => isOpen() && setOpen(false, false));
}

function trapFocus(container: HTMLElement, event: KeyboardEvent): void {
  const focusable = [...container.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), summary, [tabindex]:not([tabindex="-1"])')].filter(
    (el) => el.offsetParent !== null,
  );
  if (focusable.length === 0) return;
  const first = focusable[0]!;
  const last = focusable[focusable.length - 1]!;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

function initCartBadge(doc: Document): void {
  const badges = doc.querySelectorAll<HTMLElement>('[data-cart-badge]');
  $cartCount.subscribe((count) => {
    badges.forEach((badge) => {
      badge.hidden = count === 0;
      badge.textContent = String(count);
      badge.setAttribute('aria-label', `${count} item${count === 1 ? '' : 's'} in cart`);
    });
  });
}
