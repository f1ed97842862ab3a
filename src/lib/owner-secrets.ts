import { persistentAtom } from '@nanostores/persistent';
import { isOwnerSecret, OWNER_SECRET_HEADER } from './tool/ownership';
import { $packageKey, packageHeaders } from './packages';

/**
 * The owner secret of each item this browser made (transformation id → secret), kept in localStorage beside the
 * cart. The server hands it out once, in the answer that created the item, and keeps only its hash: the tool's
 * requests about an item send it (`ownerHeaders`), the cart keeps a copy with each result it holds and sends it
 * with the checkout. Without it an item's id shows only its watermarked preview (`src/lib/tool/ownership.ts`).
 */
export type OwnerSecrets = Record<string, string>;
export const OWNER_SECRETS_STORAGE_KEY = 'lumora-owner-secrets';
/** The most recent items kept: results live 30 days unbought, and a buyer makes a few a visit. */
export const MAX_OWNER_SECRETS = 200;

/** A corrupted or foreign value in storage keeps only well-formed secrets, never crashes. */
export function decodeOwnerSecrets(raw: string): OwnerSecrets {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([id, secret]) => id.length > 0 && isOwnerSecret(secret)));
  } catch {
    return {};
  }
}

export const $ownerSecrets = persistentAtom<OwnerSecrets>(OWNER_SECRETS_STORAGE_KEY, {}, {
  encode: JSON.stringify,
  decode: decodeOwnerSecrets,
});

/** Keeps a new item's secret (the newest last; past MAX_OWNER_SECRETS the oldest go). A malformed one is ignored. */
export function rememberOwnerSecret(transformationId: string, secret: unknown): void {
  if (!transformationId || !isOwnerSecret(secret)) return;
  const { [transformationId]: _previous, ...others } = $ownerSecrets.get();
  const entries = [...Object.entries(others), [transformationId, secret] as const];
  $ownerSecrets.set(Object.fromEntries(entries.slice(-MAX_OWNER_SECRETS)));
}

export const ownerSecretFor = (transformationId: string): string | undefined => $ownerSecrets.get()[transformationId];

/**
 * The headers that prove this browser owns the item: its owner secret, and the key of the package open here (the
 * key to the photos of the package's batches and the results it took, from any browser), or none.
 */
export function ownerHeaders(transformationId: string): Record<string, string> {
  const secret = ownerSecretFor(transformationId);
  return { ...(secret && { [OWNER_SECRET_HEADER]: secret }), ...packageHeaders($packageKey.get() || null) };
}
