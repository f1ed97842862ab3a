import { sign, verify } from '../signing';

/**
 * The buyer's package link and the links it hands out, signed like download tokens (HMAC-SHA256 with APP_SECRET,
 * `signing.ts`) and bound to the allowance's `link_version`: raising the version revokes every link made before
 * (the team's remedy for a leaked link; "Lost your link?" then sends the new one), never the images.
 *
 * - the package key `<allowance id>.<version>.<signature>`: opens the allowance in the tool, spends its images and is
 *   the key to its batches' photos (`tool/ownership.ts`);
 * - a taken result's download token `pkg.<allowance id>.<version>.<HMAC(allowance, item, version)>`: that one clean
 *   file, while the allowance took it (`/api/downloads`);
 * - a batch's ZIP token `<version>.<HMAC(batch, allowance, version)>`: that batch's taken files.
 *
 * Nothing here is stored: the server signs a link again whenever it needs one (the order's answer, the e-mails).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VERSION = /^[1-9][0-9]{0,8}$/;

export interface KeyClaim {
  allowanceId: string;
  version: number;
}

export const packageKey = (allowanceId: string, version: number) => `${allowanceId}.${version}.${sign('package', `${allowanceId}\n${version}`)}`;

/** The allowance and version a key is genuinely signed for, or null (the version is checked against the row later). */
export function readPackageKey(key: string | null | undefined): KeyClaim | null {
  const [id = '', version = '', signature, extra] = (key ?? '').trim().split('.');
  if (extra !== undefined || !UUID.test(id) || !VERSION.test(version)) return null;
  return verify('package', `${id.toLowerCase()}\n${version}`, signature) ? { allowanceId: id.toLowerCase(), version: Number(version) } : null;
}

const itemValue = (allowanceId: string, transformationId: string, version: number) => `${allowanceId}\n${transformationId.toLowerCase()}\n${version}`;

export const takenDownloadToken = (allowanceId: string, version: number, transformationId: string) =>
  `pkg.${allowanceId}.${version}.${sign('package-download', itemValue(allowanceId, transformationId, version))}`;

/** The allowance a taken result's download token names, when genuine for this item; else null. */
export function readTakenDownloadToken(transformationId: string, token: string | null): KeyClaim | null {
  const [prefix, id = '', version = '', signature, extra] = (token ?? '').split('.');
  if (prefix !== 'pkg' || extra !== undefined || !UUID.test(id) || !VERSION.test(version)) return null;
  return verify('package-download', itemValue(id.toLowerCase(), transformationId, Number(version)), signature) ? { allowanceId: id.toLowerCase(), version: Number(version) } : null;
}

export const batchZipToken = (batchId: string, allowanceId: string, version: number) => `${version}.${sign('batch-zip', `${batchId}\n${allowanceId}\n${version}`)}`;

export function isBatchZipToken(batchId: string, allowanceId: string, currentVersion: number, token: string | null): boolean {
  const [version = '', signature, extra] = (token ?? '').split('.');
  return extra === undefined && version === String(currentVersion) && verify('batch-zip', `${batchId}\n${allowanceId}\n${version}`, signature);
}
