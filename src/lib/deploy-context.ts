/**
 * Which kind of deploy this is, from Netlify's variables: the build reads them from its environment, the
 * functions from their `context` (Netlify's functions API) or the same variables (netlify/lib/running-deploy.ts).
 * Previews and branch deploys are never indexed and never take real payments; production is indexable.
 * A run that is none of Netlify's (npm start, npm run dev, tests) is `dev`.
 */
type Env = Record<string, string | undefined>;

export type DeployContext = 'production' | 'deploy-preview' | 'branch-deploy' | 'dev';

const CONTEXTS: readonly DeployContext[] = ['production', 'deploy-preview', 'branch-deploy', 'dev'];

/** Netlify's context name (`CONTEXT`, or the functions' `context.deploy.context`) as one of ours. */
export function deployContextFrom(name: string | undefined): DeployContext {
  const value = name?.trim() as DeployContext | undefined;
  // Netlify's other names (a branch-named context, `preview-server`) are not production: treat them as branch deploys.
  if (!value) return 'dev';
  return CONTEXTS.includes(value) ? value : 'branch-deploy';
}

/** Previews and branch deploys: kept out of search engines and shown with a "Preview" label. */
export const isPreviewContext = (context: DeployContext) => context === 'deploy-preview' || context === 'branch-deploy';

/** The branch a deploy was built from: Netlify's HEAD (a pull request's branch) or BRANCH. */
export const deployBranch = (env: Env): string | null => env.HEAD?.trim() || env.BRANCH?.trim() || null;

/** The fictional address of an unconfigured copy, so a local build still has absolute URLs. */
export const EXAMPLE_SITE_URL = 'https://lumora-ai.example.com';

/** The origin of the first of `names` that holds a URL; a malformed value is skipped, not fatal. */
export function firstOrigin(env: Env, names: readonly string[]): string | null {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (raw && URL.canParse(raw)) return new URL(raw).origin;
  }
  return null;
}

/**
 * The address canonical, Open Graph, sitemap and RSS URLs use: the operator's PUBLIC_SITE_URL, else the site's
 * main address Netlify gives every build (URL), else the example domain.
 */
export const canonicalSiteUrl = (env: Env): string => firstOrigin(env, ['PUBLIC_SITE_URL', 'URL']) ?? EXAMPLE_SITE_URL;

/** What the build needs to know about its deploy: the page shell's robots meta and label, `_headers`. */
export interface BuildDeploy {
  context: DeployContext;
  branch: string | null;
  noindex: boolean;
}

export function buildDeploy(env: Env): BuildDeploy {
  const context = deployContextFrom(env.CONTEXT);
  return { context, branch: deployBranch(env), noindex: isPreviewContext(context) };
}

/** The header that keeps a preview's every answer (pages, files, API) out of search engines. */
export const NOINDEX_HEADER = { 'X-Robots-Tag': 'noindex' } as const;
