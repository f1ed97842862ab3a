import type { APIRoute } from 'astro';
import { startSignIn, withSettings } from '../../editor/github-oauth';

/** The content editor's GitHub sign-in, step 1 (src/editor/github-oauth.ts). Rendered on demand. */
export const prerender = false;

export const GET: APIRoute = ({ request }) => withSettings((settings) => startSignIn(request, settings));
