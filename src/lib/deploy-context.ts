/**
 * Which kind of deploy this is, from Netlify's variables: the build reads them from its environment, the
 * functions from their `context` (Netlify's functions API) or the same variables (netlify/lib/running-deploy.ts).
 * Previews and branch deploys are never indexed and never take real payments; production is indexable.
 * A run that is none of Netlify's (npm start, npm run dev, tests) is `dev`; a context this code does not know counts
 * as production.
 */
type Env = Record<string, string | undefined>;

export type DeployContext = 'production' | 'deploy-preview' | 'branch-deploy' | 'dev';

const CONTEXTS: readonly DeployContext[] = ['production', 'deploy-preview', 'branch-deploy', 'dev'];

/** Netlify's hosted development servers: they run on Netlify with the site's variables, like a branch deploy. */
const NETLIFY_DEV_SERVERS = ['preview-server', 'dev-server'];

/**
 * Netlify's context name (`CONTEXT`, or the functions' `context.deploy.context`) as one of ours. A name that is
 * none of Netlify's counts as production (the strict rules: PAYMENTS must be named, nothing is labelled a
 * preview): guessing "not production" would relax what protects real data. No name at all is a local run
 * (`dev`); a function that knows it runs on Netlify but not in which context asks `contextWithoutName`.
 */
export function deployContextFrom(name: string | undefined): DeployContext {
  const value = name?.trim() as DeployContext | undefined;
  if (!value) return 'dev';
  if (NETLIFY_DEV_SERVERS.includes(value)) return 'branch-deploy';
  return CONTEXTS.includes(value) ? value : 'production';
}

/** No context name: a local run (`dev`), unless the environment says this is Netlify, where it counts as production. */
export const contextWithoutName = (env: Env): DeployContext =>
  env.NETLIFY === 'true' || !!env.SITE_ID?.trim() || !!env.DEPLOY_ID?.trim() ? 'production' : 'dev';

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
  const context = env.CONTEXT?.trim() ? deployContextFrom(env.CONTEXT) : contextWithoutName(env);
  return { context, branch: deployBranch(env), noindex: isPreviewContext(context) };
}

/** The header that keeps a preview's every answer (pages, files, API) out of search engines. */
export const NOINDEX_HEADER = { 'X-Robots-Tag': 'noindex' } as const;
