/**
 * Theme preference: dark by default, saved in localStorage under `theme`; light adds
 * the `light-mode` class to <html>. THEME_INIT_SCRIPT runs inline in <head> before first paint, so a
 * light-mode visitor never sees a dark flash; it is generated from the same constants as the toggle.
 */
export type Theme = 'dark' | 'light';
export const THEME_STORAGE_KEY = 'theme';
export const LIGHT_CLASS = 'light-mode';

export function parseTheme(saved: string | null | undefined): Theme {
  return saved === 'light' ? 'light' : 'dark';
}

export function nextTheme(current: Theme): Theme {
  return current === 'dark' ? 'light' : 'dark';
}

export function applyTheme(root: { classList: DOMTokenList }, theme: Theme): void {
  root.classList.toggle(LIGHT_CLASS, theme === 'light');
}

export const THEME_INIT_SCRIPT = `(function(){try{var k=${JSON.stringify(THEME_STORAGE_KEY)};var t=localStorage.getItem(k);if(t!=='light'&&t!=='dark'){t='dark';localStorage.setItem(k,t);}if(t==='light')document.documentElement.classList.add(${JSON.stringify(LIGHT_CLASS)});}catch(e){}})();`;
