/**
 * The settings the content editor needs on a deployed site, where it edits the GitHub repository (never the
 * deploy's own files): the repository, the branch pull requests go to, and the OAuth client people sign in
 * with (a GitHub OAuth app, or a GitHub App's client id and secret). Read on the server only; the secret never
 * leaves it. Documented in .env.example and README.md ("Content editor").
 */

type Env = Record<string, string | undefined>;

export const EDITOR_VARIABLES = {
  repo: 'EDITOR_GITHUB_REPO',
  branch: 'EDITOR_GITHUB_BRANCH',
  clientId: 'EDITOR_GITHUB_CLIENT_ID',
  clientSecret: 'EDITOR_GITHUB_CLIENT_SECRET',
  scope: 'EDITOR_GITHUB_SCOPE',
} as const;

/**
 * The OAuth scope the sign-in asks for: `public_repo` (a public repository: the narrowest an OAuth app can ask
 * for writing) unless the operator names `repo` for a private one. Decap's own request is not followed: it asks for
 * `repo`, every repository the author can reach. Narrower still: a GitHub App installed on this one repository
 * with Contents and Pull requests write (its client id and secret go in the same variables; scopes do not apply).
 */
export const EDITOR_SCOPES = ['public_repo', 'repo'] as const;
export type EditorScope = (typeof EDITOR_SCOPES)[number];

/** Without a branch setting, edits are proposed against this one. */
export const DEFAULT_BRANCH = 'main';

export interface GithubSettings {
  repo: string;
  branch: string;
  clientId: string;
  clientSecret: string;
  scope: EditorScope;
}

export type SettingsResult = { ok: true; settings: GithubSettings } | { ok: false; missing: string[]; invalid: string[] };

const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const BRANCH = /^[A-Za-z0-9._/-]+$/;

/** The editor's GitHub settings, or the names of the variables still to set (never their values). */
export function githubSettings(env: Env = process.env): SettingsResult {
  const read = (name: string) => env[name]?.trim() ?? '';
  const repo = read(EDITOR_VARIABLES.repo);
  const branch = read(EDITOR_VARIABLES.branch) || DEFAULT_BRANCH;
  const clientId = read(EDITOR_VARIABLES.clientId);
  const clientSecret = read(EDITOR_VARIABLES.clientSecret);
  const required: Array<[string, string]> = [[EDITOR_VARIABLES.repo, repo], [EDITOR_VARIABLES.clientId, clientId], [EDITOR_VARIABLES.clientSecret, clientSecret]];
  const missing = required.filter(([, value]) => !value).map(([name]) => name);
  const invalid: string[] = [];
  if (repo && !REPO.test(repo)) invalid.push(`${EDITOR_VARIABLES.repo} must be owner/name, e.g. acme/website`);
  if (!BRANCH.test(branch)) invalid.push(`${EDITOR_VARIABLES.branch} is not a branch name`);
  const scope = (read(EDITOR_VARIABLES.scope) || 'public_repo') as EditorScope;
  if (!EDITOR_SCOPES.includes(scope)) invalid.push(`${EDITOR_VARIABLES.scope} must be public_repo or repo`);
  if (missing.length || invalid.length) return { ok: false, missing, invalid };
  return { ok: true, settings: { repo, branch, clientId, clientSecret, scope } };
}

/** One sentence on what to set, for the editor's pages and its sign-in routes. */
export function setupMessage(result: Extract<SettingsResult, { ok: false }>): string {
  const parts = [
    result.missing.length && `set ${result.missing.join(', ')}`,
    ...result.invalid,
  ].filter(Boolean);
  return `The content editor is not set up on this site: ${parts.join('; ')} (Netlify: Site configuration → Environment variables), then redeploy. See "Content editor" in README.md.`;
}
