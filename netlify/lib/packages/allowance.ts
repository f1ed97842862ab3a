import { findImagePackage } from '../../../src/lib/catalog';
import { MSG } from '../../../src/lib/messages';
import { expiryDate, packageLinkPath, PACKAGE_KEY_HEADER, type AllowanceState, type AllowanceSummary } from '../../../src/lib/packages';
import { query, type Queryable } from '../db';
import { HttpError } from '../http';
import { getTransformation, type Transformation } from '../transformations';
import { packageKey, readPackageKey, readTakenDownloadToken, takenDownloadToken } from './tokens';

/**
 * A paid package's allowance (`package_allowances`, made by the database when the payment completes, whichever code
 * completed it): read, summarised for the buyer, opened from its key, and spent one image per distinct result
 * through the one SQL function that changes the count (`allowance_take`).
 */
/** SQL: the row (media_transformations) was taken by a package that can still be used (not refunded, not expired). */
export const TAKEN_BY_LIVE_PACKAGE = `exists (select 1 from allowance_takes k join package_allowances a on a.id = k.allowance_id
  where k.transformation_id = media_transformations.id and a.revoked_at is null and a.expires_at > now())`;

export interface Allowance {
  id: string;
  paymentId: string;
  packageId: string;
  imagesTotal: number;
  imagesUsed: number;
  expiresAt: Date;
  revokedAt: Date | null;
  linkVersion: number;
}

const COLUMNS = `id, payment_id as "paymentId", package_id as "packageId", images_total as "imagesTotal", images_used as "imagesUsed",
  expires_at as "expiresAt", revoked_at as "revokedAt", link_version as "linkVersion"`;

type Row = Allowance & Record<string, unknown>;

export async function getAllowance(id: string, db: Queryable = { query }): Promise<Allowance | null> {
  return (await db.query<Row>(`select ${COLUMNS} from package_allowances where id = $1`, [id]))[0] ?? null;
}

/** The allowances a payment gave (one per package line), oldest first. */
export const allowancesOfPayment = (paymentId: string) =>
  query<Row>(`select ${COLUMNS} from package_allowances where payment_id = $1 order by payment_item_id`, [paymentId]);

export function allowanceState(a: Allowance, now = new Date()): AllowanceState {
  if (a.revokedAt) return 'revoked';
  if (a.expiresAt <= now) return 'expired';
  return a.imagesUsed >= a.imagesTotal ? 'used-up' : 'active';
}

/** The current link's key (signed for the row's link version). */
export const keyOf = (a: Pick<Allowance, 'id' | 'linkVersion'>) => packageKey(a.id, a.linkVersion);

export function summary(a: Allowance, now = new Date()): AllowanceSummary {
  const state = allowanceState(a, now);
  return {
    packageId: a.packageId,
    name: findImagePackage(a.packageId)?.name ?? a.packageId,
    imagesTotal: a.imagesTotal,
    imagesUsed: a.imagesUsed,
    // Nothing is left to use once refunded or expired, whatever the count says.
    imagesLeft: state === 'active' ? a.imagesTotal - a.imagesUsed : 0,
    expiresAt: a.expiresAt.toISOString(),
    state,
    link: packageLinkPath(keyOf(a)),
  };
}

/** The allowance a key opens: genuinely signed and of the row's current link version; else null. */
export async function allowanceForKey(key: string | null | undefined): Promise<Allowance | null> {
  const claim = readPackageKey(key);
  if (!claim) return null;
  const a = await getAllowance(claim.allowanceId);
  return a && a.linkVersion === claim.version ? a : null;
}

/** The request's package key (header `x-package-key`), or null when it sent none. */
export const requestPackageKey = (request: Request) => request.headers.get(PACKAGE_KEY_HEADER)?.trim() || null;

/** The allowance the request's key opens: 403 for a key that opens none (forged, or revoked by a newer link). */
export async function requestAllowance(request: Request): Promise<Allowance> {
  const a = await allowanceForKey(requestPackageKey(request));
  if (!a) throw new HttpError(403, MSG.packageLinkInvalid);
  return a;
}

/** Why an allowance can spend nothing now (the buyer's words), or null while it can. */
export function refusalOf(a: Allowance, now = new Date()): HttpError | null {
  const state = allowanceState(a, now);
  if (state === 'revoked') return new HttpError(403, MSG.packageRevoked);
  if (state === 'expired') return new HttpError(410, MSG.packageExpired(expiryDate(a.expiresAt.toISOString())));
  if (state === 'used-up') return new HttpError(409, MSG.packageUsedUp);
  return null;
}

const TAKE_REFUSALS: Record<string, (a: Allowance) => HttpError> = {
  'not-found': () => new HttpError(404, MSG.imageNotFound),
  'not-ready': () => new HttpError(409, MSG.packageNotReady),
  'not-image': () => new HttpError(400, MSG.packageNotImage),
  purchased: () => new HttpError(409, MSG.packageAlreadyBought),
  'other-package': () => new HttpError(409, MSG.packageTakenElsewhere),
  revoked: (a) => refusalOf({ ...a, revokedAt: a.revokedAt ?? new Date() })!,
  expired: (a) => new HttpError(410, MSG.packageExpired(expiryDate(a.expiresAt.toISOString()))),
  'used-up': () => new HttpError(409, MSG.packageUsedUp),
};

export interface Taken {
  outcome: 'taken' | 'already';
  imagesUsed: number;
  imagesTotal: number;
  /** The clean file, authorised by the allowance (never by the item id alone). */
  downloadUrl: string;
}

/**
 * Takes a finished image result for the allowance (`allowance_take`, one SQL function under a row lock: two tabs
 * racing for the last image, exactly one wins). Taking one the allowance took before is free. Refusals are HTTP errors
 * with the buyer's words.
 */
export async function takeResult(a: Allowance, transformationId: string): Promise<Taken> {
  try {
    const [row] = await query<{ outcome: 'taken' | 'already'; images_used: number; images_total: number }>(
      'select outcome, images_used, images_total from allowance_take($1, $2)',
      [a.id, transformationId],
    );
    return { outcome: row!.outcome, imagesUsed: row!.images_used, imagesTotal: row!.images_total, downloadUrl: takenDownloadUrl(a, transformationId) };
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    const refusal = code?.startsWith('LU') && detail ? TAKE_REFUSALS[detail] : undefined;
    if (refusal) throw refusal(a);
    throw error;
  }
}

export const takenDownloadUrl = (a: Pick<Allowance, 'id' | 'linkVersion'>, transformationId: string) =>
  `/api/downloads/${transformationId}?token=${takenDownloadToken(a.id, a.linkVersion, transformationId)}`;

/** Whether the allowance took this item (what makes its clean file the buyer's, refunded or expired since or not). */
export async function tookItem(allowanceId: string, transformationId: string): Promise<boolean> {
  return (await query('select 1 from allowance_takes where allowance_id = $1 and transformation_id = $2', [allowanceId, transformationId])).length > 0;
}

/**
 * The clean file a taken result's download token gives: the token is genuine for this item and the allowance's current
 * link version, and the allowance took the item. A refund or the expiry takes nothing back that was taken.
 */
export async function takenTransformation(transformationId: string, token: string | null): Promise<Transformation | null> {
  const claim = readTakenDownloadToken(transformationId, token);
  if (!claim) return null;
  const a = await getAllowance(claim.allowanceId);
  if (!a || a.linkVersion !== claim.version || !(await tookItem(a.id, transformationId))) return null;
  const t = await getTransformation(transformationId);
  return t?.status === 'completed' && t.resultPath ? t : null;
}

/** Revokes the allowance's link (and every link it handed out); the images stay. Returns the new key. */
export async function revokeLink(allowanceId: string): Promise<string | null> {
  const [row] = await query<{ id: string; link_version: number }>(
    'update package_allowances set link_version = link_version + 1 where id = $1 returning id, link_version',
    [allowanceId],
  );
  return row ? packageKey(row.id, row.link_version) : null;
}
