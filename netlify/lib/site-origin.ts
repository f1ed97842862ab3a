/**
 * Origins of this site taken from the platform's variables. Netlify sets URL (the site's main address) and
 * DEPLOY_URL (this deploy's own address); `npm start` sets DEPLOY_URL to the local server; PUBLIC_SITE_URL
 * is the address the operator configured for canonical links. Each caller names the order it trusts.
 */
type Env = Record<string, string | undefined>;

function firstOrigin(env: Env, names: readonly string[]): string | null {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    try {
      return new URL(raw).origin;
    } catch {
      // A malformed value is skipped, not fatal: the next variable may still name the site.
    }
  }
  return null;
}

/** This deploy's own address (background jobs call back into the same deploy), or null. */
export const deployOrigin = (env: Env = process.env) => firstOrigin(env, ['DEPLOY_URL', 'URL']);

/** The address buyers reach the site at (links in e-mails outlive a deploy): URL, DEPLOY_URL, PUBLIC_SITE_URL. */
export const publicOrigin = (env: Env = process.env) => firstOrigin(env, ['URL', 'DEPLOY_URL', 'PUBLIC_SITE_URL']);
