import type { APIRoute } from 'astro';
import { finishSignIn, withSettings } from '../../editor/github-oauth';

/** The content editor's GitHub sign-in, step 2: GitHub sends the person back here (src/editor/github-oauth.ts). */
export const prerender = false;

export const GET: APIRoute = ({ request }) => withSettings((settings) => finishSignIn(request, settings));
