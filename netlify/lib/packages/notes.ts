import { MSG } from '../../../src/lib/messages';
import type { AllowanceSummary } from '../../../src/lib/packages';

/** What a package line says: what it gives, until when, and how it is used (no promise the tool does not keep). */
export const packageNote = (a: Pick<AllowanceSummary, 'imagesTotal' | 'imagesLeft' | 'expiresAt' | 'state'>) =>
  a.state === 'revoked'
    ? MSG.packageRevoked
    : `${a.imagesLeft} of ${a.imagesTotal} images left, to use until ${a.expiresAt.slice(0, 10)}: open your package link, add your photos (many at once if you like) and download each restored photo, or all of them as a ZIP, the moment it is done.`;

export const PACKAGE_LINK_CARE =
  'Your package link is the key to your images: keep it private. Lost it? Use “Lost your link?” on the site with this e-mail address and we send it again.';
