import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectFile } from '../../engines/shared';
import { contextWithoutName, deployContextFrom, firstOrigin, isPreviewContext, type DeployContext } from '../../src/lib/deploy-context';

/**
 * The deploy a function belongs to, and the address absolute links point at. Netlify gives a running
 * function only `URL` among its deploy variables, plus the deploy's context and branch in its `context`
 * argument; the rest (DEPLOY_PRIME_URL, DEPLOY_URL) exists only at build time, so a Netlify build records
 * them in a file every function ships with (netlify.toml). Anything set in the environment wins (npm start
 * sets DEPLOY_URL to the local server; tests set CONTEXT).
 */
type Env = Record<string, string | undefined>;

/** Written by the build on Netlify (astro.config.mjs), read by the functions. */
export const DEPLOY_RECORD_PATH = '.netlify/deploy.json';
const RECORDED = ['CONTEXT', 'URL', 'DEPLOY_URL', 'DEPLOY_PRIME_URL', 'HEAD', 'BRANCH'] as const;

/** Writes the build's deploy variables for the functions (only on Netlify, where the build has them). */
export function writeDeployRecord(root: string, env: Env): void {
  if (env.NETLIFY !== 'true') return;
  const file = path.join(root, DEPLOY_RECORD_PATH);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(Object.fromEntries(RECORDED.map((name) => [name, env[name] ?? ''])), null, 2)}\n`);
}

/** The record at `file`, or nothing when there is none (every run that is not a Netlify deploy). */
export function readDeployRecord(file: string): Env {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  } catch {
    return {};
  }
}

let record: Env | undefined;
const deployRecord = () => (record ??= readDeployRecord(projectFile(DEPLOY_RECORD_PATH)));

/** The part of Netlify's functions `context` read here. */
export interface PlatformContext {
  deploy?: { context?: string; branch?: string };
}

// A function instance belongs to exactly one deploy, so its first request's context holds for all of them.
let platformContext: string | undefined;

/** Called with each function's `context` (through withErrors): remembers the deploy's context. */
export function rememberPlatformContext(context: unknown): void {
  const name = (context as PlatformContext | undefined)?.deploy?.context;
  if (typeof name === 'string' && name.trim()) platformContext = name.trim();
}

/** For tests: forget what the functions' context and the build's record said. */
export function resetDeployState(): void {
  platformContext = undefined;
  record = undefined;
}

/** This deploy's context: Netlify's functions context, else CONTEXT from the environment or the build's record. */
export function currentDeployContext(env: Env = process.env): DeployContext {
  const name = platformContext ?? (env.CONTEXT?.trim() || deployRecord().CONTEXT);
  return name ? deployContextFrom(name) : contextWithoutName(env);
}

export const isPreviewDeploy = (env: Env = process.env) => isPreviewContext(currentDeployContext(env));

/**
 * The address of the deploy that is answering, for every absolute link the server makes (order e-mails,
 * Stripe's return pages, the video job's trigger), never taken from a request header: production → URL,
 * a preview or branch deploy → DEPLOY_PRIME_URL (its own address, never production's), a local run →
 * DEPLOY_URL (set by npm start). Null when none is known.
 */
export function deployOrigin(env: Env = process.env): string | null {
  const vars: Env = { ...deployRecord() };
  for (const name of RECORDED) if (env[name]?.trim()) vars[name] = env[name];
  const context = currentDeployContext(env);
  if (context === 'production') return firstOrigin(vars, ['URL', 'DEPLOY_URL']);
  if (isPreviewContext(context)) return firstOrigin(vars, ['DEPLOY_PRIME_URL', 'DEPLOY_URL']);
  return firstOrigin(vars, ['DEPLOY_URL', 'URL']);
}
