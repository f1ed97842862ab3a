import type { APIContext } from 'astro';
import { buildDeploy } from '../lib/deploy-context';

/**
 * robots.txt for the deploy being built. Production points crawlers at the sitemap. A preview or branch
 * deploy does not list it: its pages and files carry noindex instead (a Disallow would hide that noindex
 * from crawlers, and a linked preview could still be listed).
 */
export function GET(context: APIContext) {
  const deploy = buildDeploy(process.env);
  const lines = ['User-agent: *', 'Allow: /'];
  if (deploy.noindex) lines.unshift(`# ${deploy.context}: every answer is noindex (X-Robots-Tag and <meta name="robots">).`);
  else if (context.site) lines.push('', `Sitemap: ${new URL('/sitemap-index.xml', context.site).href}`);
  return new Response(`${lines.join('\n')}\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
