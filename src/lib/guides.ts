/**
 * The free guides a lead form gives (entries of src/content/guides, one page each at /guides/{file name}). The
 * pages are public but unlisted: left out of the sitemap and marked noindex, and linked from the e-mail a lead
 * receives. A guide is marketing content its reader may forward, so a plain page (fast, cached, readable for years,
 * no server involved) serves it better than a signed link that would expire.
 */

/** A guide's file name: lowercase words joined by hyphens (also what /api/leads accepts). */
export const GUIDE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The guide a lead form gives when its section names none. */
export const DEFAULT_GUIDE = 'prepare-old-photos-for-restoration';

export const guidePath = (slug: string) => `/guides/${slug}`;
