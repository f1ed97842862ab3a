import { createRoot } from 'react-dom/client';
import { Toaster, toast as sonner } from 'sonner';
import { TOAST_DEFAULT_MS, TOAST_MAX_VISIBLE } from './messages';

/**
 * The toast area (top right, at most 3 visible, 4000 ms by default). Every page carries an
 * empty `#toast-root` region; the Toaster mounts there the first time an island imports this module,
 * so pages without islands ship no JavaScript for it and all islands share one toast stack.
 */
function mountToaster(): void {
  if (typeof document === 'undefined') return;
  const host = document.getElementById('toast-root');
  if (!host || host.dataset.mounted) return;
  host.dataset.mounted = 'true';
  const theme = document.documentElement.classList.contains('light-mode') ? 'light' : 'dark';
  createRoot(host).render(
    <Toaster
      position="top-right"
      visibleToasts={TOAST_MAX_VISIBLE}
      duration={TOAST_DEFAULT_MS}
      theme={theme}
      richColors
      closeButton
    />,
  );
}

mountToaster();

export const toast = sonner;
