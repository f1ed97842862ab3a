import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildDeploy,
  canonicalSiteUrl,
  deployContextFrom,
  EXAMPLE_SITE_URL,
  isPreviewContext,
} from '../../../src/lib/deploy-context';
import {
  currentDeployContext,
  DEPLOY_RECORD_PATH,
  deployOrigin,
  readDeployRecord,
  rememberPlatformContext,
  resetDeployState,
  writeDeployRecord,
} from '../../../netlify/lib/running-deploy';

afterEach(() => resetDeployState());

describe('the deploy context from Netlify’s variables', () => {
  it('knows Netlify’s contexts; a local run is dev, any other named context a branch deploy', () => {
    expect(deployContextFrom(undefined)).toBe('dev');
    expect(deployContextFrom('  ')).toBe('dev');
    expect(deployContextFrom('production')).toBe('production');
    expect(deployContextFrom('deploy-preview')).toBe('deploy-preview');
    expect(deployContextFrom('branch-deploy')).toBe('branch-deploy');
    // A name Netlify does not use counts as production (the strict rules); its hosted dev servers as branch deploys.
    expect(deployContextFrom('staging')).toBe('production');
    expect(deployContextFrom('preview-server')).toBe('branch-deploy');
    expect(['production', 'dev'].map((c) => isPreviewContext(deployContextFrom(c)))).toEqual([false, false]);
    expect(['deploy-preview', 'branch-deploy'].map((c) => isPreviewContext(deployContextFrom(c)))).toEqual([true, true]);
  });

  it('builds previews noindex, naming the pull request’s branch (HEAD) or BRANCH', () => {
    expect(buildDeploy({ CONTEXT: 'deploy-preview', HEAD: 'content/hero', BRANCH: 'pull/4/head' })).toEqual({ context: 'deploy-preview', branch: 'content/hero', noindex: true });
    expect(buildDeploy({ CONTEXT: 'branch-deploy', BRANCH: 'staging' })).toEqual({ context: 'branch-deploy', branch: 'staging', noindex: true });
    expect(buildDeploy({ CONTEXT: 'production', BRANCH: 'main' })).toMatchObject({ context: 'production', noindex: false });
    expect(buildDeploy({})).toEqual({ context: 'dev', branch: null, noindex: false });
  });

  it('puts canonical URLs on PUBLIC_SITE_URL, else the URL Netlify gives every build', () => {
    expect(canonicalSiteUrl({ PUBLIC_SITE_URL: 'https://lumora.example/', URL: 'https://lumora.netlify.app' })).toBe('https://lumora.example');
    expect(canonicalSiteUrl({ URL: 'https://lumora.netlify.app' })).toBe('https://lumora.netlify.app');
    expect(canonicalSiteUrl({ PUBLIC_SITE_URL: 'not a url', URL: 'https://lumora.netlify.app' })).toBe('https://lumora.netlify.app');
    expect(canonicalSiteUrl({})).toBe(EXAMPLE_SITE_URL);
  });
});

describe('a function’s deploy', () => {
  const netlify = { URL: 'https://lumora.example', DEPLOY_URL: 'https://abc123--lumora.netlify.app', DEPLOY_PRIME_URL: 'https://deploy-preview-7--lumora.netlify.app' };

  it('takes the context from Netlify’s functions context first, then CONTEXT', () => {
    expect(currentDeployContext({})).toBe('dev');
    expect(currentDeployContext({ CONTEXT: 'deploy-preview' })).toBe('deploy-preview');
    rememberPlatformContext({});
    rememberPlatformContext(undefined);
    expect(currentDeployContext({ CONTEXT: 'deploy-preview' })).toBe('deploy-preview');
    rememberPlatformContext({ deploy: { context: 'production', branch: 'main' } });
    expect(currentDeployContext({ CONTEXT: 'deploy-preview' })).toBe('production');
  });

  it('links to the deploy that made the link: URL in production, DEPLOY_PRIME_URL on a preview, DEPLOY_URL locally', () => {
    expect(deployOrigin({ ...netlify, CONTEXT: 'production' })).toBe('https://lumora.example');
    expect(deployOrigin({ ...netlify, CONTEXT: 'deploy-preview' })).toBe('https://deploy-preview-7--lumora.netlify.app');
    expect(deployOrigin({ ...netlify, CONTEXT: 'branch-deploy' })).toBe('https://deploy-preview-7--lumora.netlify.app');
    expect(deployOrigin({ URL: netlify.URL, DEPLOY_URL: netlify.DEPLOY_URL, CONTEXT: 'deploy-preview' })).toBe(netlify.DEPLOY_URL);
    // A preview never sends buyers to production's address.
    expect(deployOrigin({ URL: netlify.URL, CONTEXT: 'deploy-preview' })).toBeNull();
    expect(deployOrigin({ DEPLOY_URL: 'http://127.0.0.1:8888', URL: netlify.URL })).toBe('http://127.0.0.1:8888');
    expect(deployOrigin({ URL: 'https://lumora.example/', CONTEXT: 'production' })).toBe('https://lumora.example');
    expect(deployOrigin({ URL: 'not a url', DEPLOY_URL: netlify.DEPLOY_URL, CONTEXT: 'production' })).toBe(netlify.DEPLOY_URL);
    expect(deployOrigin({})).toBeNull();
  });

  it('reads the addresses a Netlify build recorded, which a running function is not given', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'lumora-deploy-record-'));
    const previous = process.env.LAMBDA_TASK_ROOT;
    try {
      writeDeployRecord(root, { ...netlify, CONTEXT: 'deploy-preview' });
      expect(readDeployRecord(path.join(root, DEPLOY_RECORD_PATH)), 'written on Netlify only').toEqual({});
      writeDeployRecord(root, { ...netlify, CONTEXT: 'deploy-preview', HEAD: 'content/hero', NETLIFY: 'true', APP_SECRET: 'never recorded' });
      expect(readFileSync(path.join(root, DEPLOY_RECORD_PATH), 'utf8')).not.toContain('never recorded');
      process.env.LAMBDA_TASK_ROOT = root;
      resetDeployState();
      // As on Netlify at run time: only URL in the environment.
      expect(currentDeployContext({ URL: netlify.URL })).toBe('deploy-preview');
      expect(deployOrigin({ URL: netlify.URL })).toBe(netlify.DEPLOY_PRIME_URL);
      // What the environment says wins (npm start, tests).
      expect(deployOrigin({ URL: netlify.URL, CONTEXT: 'production' })).toBe(netlify.URL);
      writeFileSync(path.join(root, DEPLOY_RECORD_PATH), 'not json');
      expect(readDeployRecord(path.join(root, DEPLOY_RECORD_PATH))).toEqual({});
    } finally {
      if (previous === undefined) delete process.env.LAMBDA_TASK_ROOT;
      else process.env.LAMBDA_TASK_ROOT = previous;
      rmSync(root, { recursive: true, force: true });
    }
  });
});
