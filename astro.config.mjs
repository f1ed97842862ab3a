// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import netlify from '@astrojs/netlify';
import tailwindcss from '@tailwindcss/vite';
import { assertEmbedsAllowed } from './scripts/lib/csp.mjs';

// Every page is prerendered to static HTML; server code lives in netlify/functions/.
export default defineConfig({
  site: process.env.PUBLIC_SITE_URL || 'https://lumora-ai.example.com',
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  // Images are optimised at build time (sharp) into dist/, so they work offline and on any host.
  // edgeFunctions stays at the adapter's default; the type requires all three keys.
  adapter: netlify({ imageCDN: false, devFeatures: { environmentVariables: false, images: false, edgeFunctions: true } }),
  integrations: [
    react(),
    mdx(),
    sitemap({ filter: (page) => !/\/(404|checkout\/)/.test(page) }),
    {
      name: 'lumora:csp-embeds',
      hooks: { 'astro:config:done': ({ config }) => assertEmbedsAllowed(config.root) },
    },
  ],
  vite: { plugins: [tailwindcss()] },
  prefetch: false,
});
