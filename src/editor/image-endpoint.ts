import type { APIRoute } from 'astro';

/**
 * Astro's on-demand image endpoint (`/_image`) in a build, replaced (scripts/platform/content-editor.ts): every image
 * is optimised at build time, and the editor's on-demand routes must not bring a public image-resizing service
 * (and sharp) into the site's server function.
 */
export const prerender = false;

export const GET: APIRoute = () =>
  new Response('Images are optimised when the site is built.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
