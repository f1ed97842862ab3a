import { map } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import { MSG } from '../messages';
import { $packageKey, keyFromHash, packageHeaders, PACKAGE_FRAGMENT } from '../packages';
import { packageAnswerSchema, takeAnswerSchema, type AllowanceSummary, type TakeAnswer } from '../packages-schema';
import { ApiError, messageAnswerSchema, requestJson } from '../api-answer';
import { isDownloadLink } from '../cart-state';

/**
 * The package open in the tool: its key comes from the link's fragment (`#package=…`, never sent to a server by the
 * browser) or from localStorage (`$packageKey`, set by the success page and by the link), its allowance from
 * `GET /api/packages` (a read: opening the link changes nothing). With a package open, a finished image result is
 * taken clean ("Use 1 of 86") instead of going to the cart, and the image tab's batches belong to the package.
 */
export interface PackageState {
  status: 'none' | 'loading' | 'open' | 'invalid';
  allowance: AllowanceSummary | null;
  /** The package's newest batch, which the tab resumes. */
  batchId: string | null;
  error: string | null;
}

export const $package = map<PackageState>({ status: 'none', allowance: null, batchId: null, error: null });

/** The clean-file links of results this browser took with a package (id → `/api/downloads/…?token=pkg.…`). */
export const $taken = persistentAtom<Record<string, string>>('lumora-package-taken', {}, {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed ?? {}).filter(([id, url]) => isDownloadLink(id, url))) as Record<string, string>;
    } catch {
      return {};
    }
  },
});

export const rememberTaken = (transformationId: string, url: string | null | undefined) => {
  if (url && isDownloadLink(transformationId, url)) $taken.set({ ...$taken.get(), [transformationId]: url });
};

/** The header that opens the package on the server, when one is open in this browser. */
export const packageKeyHeaders = () => packageHeaders($packageKey.get() || null);

/**
 * Opens the package of the page's address (the fragment is then removed from the address bar and history, so the key
 * is not left on screen or in a shared screenshot), or the one this browser kept. Reads only.
 */
export async function openPackage(location: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location): Promise<void> {
  const fromLink = keyFromHash(location.hash);
  if (fromLink) {
    $packageKey.set(fromLink);
    window.history.replaceState(null, '', `${location.pathname}${location.search}`);
  } else if (new URLSearchParams(location.hash.replace(/^#/, '')).has(PACKAGE_FRAGMENT)) {
    $package.set({ status: 'invalid', allowance: null, batchId: null, error: MSG.packageLinkInvalid });
    return;
  }
  if (!$packageKey.get()) return;
  await refreshPackage();
}

/** Reads the open package again (after a take, or when a batch changed what is left). */
export async function refreshPackage(): Promise<void> {
  const key = $packageKey.get();
  if (!key) return;
  if ($package.get().status !== 'open') $package.setKey('status', 'loading');
  try {
    const { allowance, batchId } = await requestJson(packageAnswerSchema, 'GET', '/api/packages', { headers: packageHeaders(key), fallback: MSG.packageLinkInvalid });
    $package.set({ status: 'open', allowance, batchId, error: null });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      $package.set({ status: 'invalid', allowance: null, batchId: null, error: error.message });
    } else {
      // Unreachable, or an answer that is not a package's: the package stays as last read.
      $package.set({ ...$package.get(), status: $package.get().allowance ? 'open' : 'none' });
    }
  }
}

/** Forgets the package in this browser (the buyer's "Close package"). */
export function closePackage(): void {
  $packageKey.set('');
  $package.set({ status: 'none', allowance: null, batchId: null, error: null });
}

export type { TakeAnswer };

/** "Use 1 of 86": takes the result with the package; resolves the answer, or throws the server's words. */
export async function takeWithPackage(transformationId: string, ownerHeaders: Record<string, string>): Promise<TakeAnswer> {
  const answer = await requestJson(takeAnswerSchema, 'POST', '/api/packages/take', {
    body: { transformationId },
    headers: { ...ownerHeaders, ...packageKeyHeaders() },
    fallback: MSG.imageError(),
  }).catch(async (error: unknown) => {
    await refreshPackage();
    throw error;
  });
  rememberTaken(transformationId, answer.downloadUrl);
  const a = $package.get().allowance;
  if (a) $package.setKey('allowance', { ...a, imagesUsed: answer.imagesUsed, imagesLeft: answer.imagesLeft, state: answer.imagesLeft > 0 ? a.state : 'used-up' });
  return answer;
}

/** "Lost your link?": the same answer whatever the address; the server's words on a refusal. */
export async function requestLostLink(email: string): Promise<string> {
  const { message } = await requestJson(messageAnswerSchema, 'POST', '/api/packages/link', { body: { email }, fallback: MSG.serverError });
  return message || MSG.packageLinkSent;
}
