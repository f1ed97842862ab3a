import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { query } from '../db';
import { HttpError } from '../http';
import { getTransformation, type Transformation } from '../transformations';
import { MSG } from '../../../src/lib/messages';
import { isOwnerSecret, OWNER_SECRET_HEADER } from '../../../src/lib/tool/ownership';

/**
 * An item of the tool belongs to the browser that made it. Its id is no key: it travels in the shareable preview
 * link (`/api/transformations/<id>/preview`). Each new item gets a random owner secret, handed to the creating
 * browser once; the row keeps only its SHA-256 (the secret has 256 random bits, so a plain hash is enough and does
 * not depend on APP_SECRET, whose rotation must not disown every item). Everything but the watermarked preview
 * needs it: the status answer (it carries the original), re-renders (heal, hints, reference and its removal),
 * "Animate this photo" (`fromImageId`, for the job and the tab's defaults) and the checkout.
 *
 * Every such check goes through `isOwner`, so another proof of ownership (a prepaid package's secret link
 * standing for its batch's photos) is one more branch there. Rows made before owner secrets (no hash) are legacy
 * and keep working as before, for whoever has their id, until the retention deletes them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the ownership of an item is decided on. */
export type OwnedRow = Pick<Transformation, 'ownerSecretHash'>;

export const ownerSecretHash = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new item's owner secret (for the creating browser's answer, once) and the hash its row keeps. */
export function newOwnerSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: ownerSecretHash(secret) };
}

/** Whether `secret` proves ownership of the row (compared as hashes, in constant time). A legacy row has no owner. */
export function isOwner(row: OwnedRow, secret: string | null | undefined): boolean {
  if (row.ownerSecretHash === null) return true;
  if (!isOwnerSecret(secret)) return false;
  const given = Buffer.from(ownerSecretHash(secret), 'hex');
  const kept = Buffer.from(row.ownerSecretHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/** The owner secret a request carries for the item it names (OWNER_SECRET_HEADER), or null. */
export function requestOwnerSecret(request: Request): string | null {
  return request.headers.get(OWNER_SECRET_HEADER)?.trim() || null;
}

/** 403 unless the request carries the row's owner secret. */
export function assertOwner(row: OwnedRow, request: Request): void {
  if (!isOwner(row, requestOwnerSecret(request))) throw new HttpError(403, MSG.notYourItem);
}

/**
 * The item `id` names, checked against the request's owner secret: null when there is no such item (the caller
 * answers as it always has), 403 when it is someone else's.
 */
export async function ownedItem(id: string, request: Request): Promise<Transformation | null> {
  const row = await getTransformation(id);
  if (row) assertOwner(row, request);
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
  const rows = await query<{ id: string; owner_secret_hash: string | null }>(
    'select id::text as id, owner_secret_hash from media_transformations where id = any($1::uuid[])',
    [ids],
  );
  const hashes = new Map(rows.map((row) => [row.id.toLowerCase(), row.owner_secret_hash]));
  for (const item of items) {
    const hash = hashes.get(item.transformationId.toLowerCase());
    if (hash !== undefined && !isOwner({ ownerSecretHash: hash }, item.ownerSecret)) throw new HttpError(403, MSG.notYourCartItem);
  }
}
