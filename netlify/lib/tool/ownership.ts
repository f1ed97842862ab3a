import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { query } from '../db';
import { HttpError } from '../http';
import { getTransformation, type Transformation } from '../transformations';
import { MSG } from '../../../src/lib/messages';
import { isOwnerSecret, OWNER_SECRET_HEADER } from '../../../src/lib/tool/ownership';
import { allowanceForKey, requestPackageKey } from '../packages/allowance';

/**
 * An item of the tool belongs to the browser that made it. Its id is no key: it travels in the shareable preview
 * link (`/api/transformations/<id>/preview`). Each new item gets a random owner secret, handed to the creating
 * browser once; the row keeps only its SHA-256 (the secret has 256 random bits, so a plain hash is enough and does
 * not depend on APP_SECRET, whose rotation must not disown every item). Everything but the watermarked preview
 * needs it: the status answer (it carries the original), re-renders (heal, hints, reference and its removal),
 * "Animate this photo" (`fromImageId`, for the job and the tab's defaults) and the checkout.
 *
 * Every such check goes through `isOwner`. Its second branch: a prepaid package's secret link (its key, in the
 * `x-package-key` header) stands for the photos of its batches and the results it took (`allowance_id` on the row),
 * so the buyer reaches them from any browser the link is opened in. Rows made before owner secrets (no hash, no
 * allowance) are legacy and keep working as before, for whoever has their id, until the retention deletes them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the ownership of an item is decided on. */
export type OwnedRow = Pick<Transformation, 'ownerSecretHash'> & Partial<Pick<Transformation, 'allowanceId'>>;

/**
 * What a request proves: the item's owner secret, and the allowance its package key opens (checked: signed, of the
 * current link version; `requestProof`). A bare string is an owner secret alone.
 */
export interface OwnerProof {
  secret?: string | null;
  allowanceId?: string | null;
}

export const ownerSecretHash = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new item's owner secret (for the creating browser's answer, once) and the hash its row keeps. */
export function newOwnerSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: ownerSecretHash(secret) };
}

/**
 * Whether the proof owns the row: its package's allowance is the row's, or its secret matches the row's hash (compared
 * as hashes, in constant time). A legacy row (neither) has no owner.
 */
export function isOwner(row: OwnedRow, proof: OwnerProof | string | null | undefined): boolean {
  const { secret, allowanceId } = typeof proof === 'object' && proof !== null ? proof : { secret: proof, allowanceId: null };
  const rowAllowance = row.allowanceId ?? null;
  if (rowAllowance && allowanceId && rowAllowance === allowanceId) return true;
  if (row.ownerSecretHash === null) return rowAllowance === null;
  if (!isOwnerSecret(secret)) return false;
  const given = Buffer.from(ownerSecretHash(secret), 'hex');
  const kept = Buffer.from(row.ownerSecretHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/** The owner secret a request carries for the item it names (OWNER_SECRET_HEADER), or null. */
export function requestOwnerSecret(request: Request): string | null {
  return request.headers.get(OWNER_SECRET_HEADER)?.trim() || null;
}

/** What the request proves: its owner secret, and the allowance its package key opens (null for none or a bad key). */
export async function requestProof(request: Request): Promise<OwnerProof> {
  const key = requestPackageKey(request);
  return { secret: requestOwnerSecret(request), allowanceId: key ? ((await allowanceForKey(key))?.id ?? null) : null };
}

/** 403 unless the request carries the row's owner secret, or the key of the package the row belongs to. */
export async function assertOwner(row: OwnedRow, request: Request): Promise<void> {
  if (!isOwner(row, await requestProof(request))) throw new HttpError(403, MSG.notYourItem);
}

/**
 * The item `id` names, checked against the request's owner secret: null when there is no such item (the caller
 * answers as it always has), 403 when it is someone else's.
 */
export async function ownedItem(id: string, request: Request): Promise<Transformation | null> {
  const row = await getTransformation(id);
  if (row) await assertOwner(row, request);
  return row;
}

/**
 * The checkout's check: each item of the cart with its owner secret (the cart keeps them). An unknown id is left
 * to place_order (404 as before). The hash never changes after the row is made, so checking before the order's
 * transaction leaves no window.
 */
export async function assertOwnsItems(items: readonly { transformationId: string; ownerSecret?: string }[]): Promise<void> {
  // A malformed id is place_order's to refuse (400), as it always has.
  const ids = items.map((item) => item.transformationId).filter((id) => UUID.test(id));
  if (ids.length === 0) return;
  const rows = await query<{ id: string; owner_secret_hash: string | null; allowance_id: string | null }>(
    'select id::text as id, owner_secret_hash, allowance_id::text as allowance_id from media_transformations where id = any($1::uuid[])',
    [ids],
  );
  const owned = new Map(rows.map((row) => [row.id.toLowerCase(), { ownerSecretHash: row.owner_secret_hash, allowanceId: row.allowance_id }]));
  for (const item of items) {
    const row = owned.get(item.transformationId.toLowerCase());
    if (row !== undefined && !isOwner(row, item.ownerSecret)) throw new HttpError(403, MSG.notYourCartItem);
  }
}
