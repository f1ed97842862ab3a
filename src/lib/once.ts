/**
 * True the first time `key` is asked for in this browser tab, false after: a notice tied to an event (an order
 * just paid) shows once, not again on reload. Without storage (private mode, blocked) it still shows, once per page.
 */
export function firstTimeInSession(key: string, storage: Pick<Storage, 'getItem' | 'setItem'> | null = sessionStorageOrNull()): boolean {
  if (!storage) return true;
  try {
    if (storage.getItem(key) !== null) return false;
    storage.setItem(key, '1');
  } catch {
    /* storage refused: better a repeated notice than a missing one */
  }
  return true;
}

function sessionStorageOrNull(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}
