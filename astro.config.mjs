// @ts-check
import { writeFile } from 'node:fs/promises';
import { defineConfig } from 'astro/config';
import { loadEnv } from 'vite';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import netlify from '@astrojs/netlify';
import tailwindcss from '@tailwindcss/vite';
import { astroCsp, headersFile, policyInputs } from './netlify/lib/security-headers.ts';
import { writeDeployRecord } from './netlify/lib/running-deploy.ts';
import { buildDeploy, canonicalSiteUrl } from './src/lib/deploy-context.ts';
import { contentEditor } from './scripts/platform/content-editor.ts';

// The variables the pages are built with: the environment over .env, as the pages' import.meta.env sees them.
const env = { ...loadEnv(process.env.NODE_ENV === 'development' ? 'development' : 'production', process.cwd(), ''), ...process.env };
// Netlify's deploy context (CONTEXT, HEAD/BRANCH): previews and branch deploys are built noindex.
const deploy = buildDeploy(env);

// Every page is prerendered to static HTML; server code lives in netlify/functions/.
export default defineConfig({
  // Canonical, Open Graph, sitemap and RSS URLs: PUBLIC_SITE_URL, else the URL Netlify gives every build.
  site: canonicalSiteUrl(env),
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  // The Content-Security-Policy, computed from SUPABASE_URL and the PUBLIC_* embeds: Astro writes it into each
  // page's <meta> with the hashes of that page's inline scripts and styles.
  security: { csp: astroCsp(policyInputs(env)) },
  // Images are optimised at build time (sharp) into dist/, so they work offline and on any host.
  // edgeFunctions stays at the adapter's default; the type requires all three keys.
  adapter: netlify({ imageCDN: false, devFeatures: { environmentVariables: false, images: false, edgeFunctions: true } }),
  integrations: [
    react(),
    mdx(),
    // Unlisted: checkout steps, the editor and the team's inbox, the newsletter's confirmation pages, the free guides
    // (reached from a lead's e-mail; noindex too).
    sitemap({ filter: (page) => !/\/(404|checkout\/|admin(\/|$)|newsletter\/|guides\/)/.test(page) }),
    {
      // The headers a <meta> cannot carry, for Netlify and for `npm start` alike (both read dist/_headers).
      name: 'lumora:security-headers',
      hooks: { 'astro:build:done': ({ dir }) => writeFile(new URL('_headers', dir), headersFile({ noindex: deploy.noindex })) },
    },
    {
      // On Netlify, the deploy's addresses for the functions, which get only URL at run time (netlify/lib/running-deploy.ts).
      name: 'lumora:deploy-record',
      hooks: { 'astro:build:done': () => writeDeployRecord(process.cwd(), env) },
    },
    // The content editor at /admin (on-demand routes in src/pages/admin/): its bundle and its dev-server file API.
    contentEditor(),
  ],
  vite: { plugins: [tailwindcss()] },
  prefetch: false,
});
