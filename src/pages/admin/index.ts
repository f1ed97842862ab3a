import type { APIRoute } from 'astro';
import { adminResponse } from '../../editor/admin-page';
import { site } from '../../lib/site';

/**
 * The content editor (Decap CMS; README.md, "Content editor") on a deployed site, rendered on demand so it reads
 * its GitHub settings at request time: it edits the GitHub repository after GitHub sign-in or, without the
 * settings, says which to set (src/editor/admin-page.ts). Under `npm run dev` the dev server answers /admin
 * itself, with the editor on this checkout's files (scripts/platform/content-editor.ts).
 */
export const prerender = false;

export const GET: APIRoute = ({ url }) => adminResponse({ origin: url.origin, brand: site.brand });
