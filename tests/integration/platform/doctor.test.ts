import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../../support/command';
import { FakeReplicate } from '../../support/fake-replicate';
import { postgresAvailability, startDebianPostgres, type RunningPostgres } from '../../support/debian-postgres';
import { runDoctor, supabaseKeyKind } from '../../../netlify/lib/doctor';
import { forgetModels } from '../../../netlify/lib/providers/replicate-models';
import health from '../../../netlify/functions/health.mts';
import { operatorHealthRequest } from '../../support/operator-health';
import { vi } from 'vitest';

// `npm run doctor`, the deploy check, run as the operator runs it: a shell with the deploy's variables.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fake = new FakeReplicate(() => ({ script: [{ status: 'succeeded' }] }));
const str = { type: 'string' };
fake.models = {
  // Kling as its page shows it: the photo goes under start_image.
  'kwaivgi/kling-v2.1': { official: true, input: { required: ['prompt', 'start_image'], properties: { prompt: str, start_image: str, duration: { enum: [5, 10] }, mode: { enum: ['standard', 'pro'] } } } },
  'piddnad/ddcolor': { official: false, version: 'ddc0', input: { required: ['image'], properties: { image: str, model_size: { enum: ['large', 'tiny'] } } } },
  // A custom image-to-video model whose schema lacks the key the site is told to use.
  'acme/i2v': { official: true, input: { required: ['first_frame'], properties: { first_frame: str, prompt: str } } },
};
fake.strict = true;

/** The environment a shell has, without this machine's own deploy variables. */
function shell(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(DATABASE_|SUPABASE_|REPLICATE_|VIDEO_ENGINE)/.test(k)) env[k] = v;
  return { ...env, ...vars };
}
const doctor = (vars: Record<string, string>) =>
  runCommand('npm', ['run', '--silent', 'doctor'], { cwd: root, env: shell(vars) }).then(
    (out) => ({ code: 0, out }),
    (error: Error) => ({ code: Number(/exit (\d+)/.exec(error.message)?.[1] ?? -1), out: error.message }),
  );
const problemLines = (out: string) => out.split('\n').filter((l) => l.startsWith('- '));

const pg = postgresAvailability();
let server: RunningPostgres | undefined;

beforeAll(async () => {
  await fake.start();
  if (pg.available) server = await startDebianPostgres();
}, 120_000);
afterAll(async () => {
  await fake.stop();
  await server?.stop();
});

describe('npm run doctor', () => {
  it('on a misconfigured environment prints one plain sentence per problem with its fix, and exits non-zero', async () => {
    const { code, out } = await doctor({
      DATABASE_URL: 'postgres://postgres.abc:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres?sslmode=require',
      SUPABASE_URL: 'https://abc.supabase.co',
      SUPABASE_SERVICE_KEY: 'sb_secret_0123456789',
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.base,
      REPLICATE_VIDEO_MODEL: 'acme/i2v',
      REPLICATE_VIDEO_IMAGE_KEY: 'image',
    });
    expect(code).toBe(1);
    const lines = problemLines(out);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^- DATABASE_URL asks for sslmode=require but DATABASE_CA_CERT is not set, .*: set DATABASE_CA_CERT .*\?sslmode=verify-full; see docs\/deploy\.md\.$/);
    expect(lines[1]).toBe('- SUPABASE_SERVICE_KEY is not a name this site reads, so storage stays on local disk: rename it to SUPABASE_SECRET_KEY.');
    expect(lines[2]).toBe('- REPLICATE_VIDEO_MODEL (acme/i2v) takes no input named "image", so the photo would be dropped: set REPLICATE_VIDEO_IMAGE_KEY=first_frame.');
    expect(lines[3]).toBe('- REPLICATE_VIDEO_MODEL (acme/i2v) requires "first_frame", which nothing sends: add "first_frame" to REPLICATE_VIDEO_INPUT.');
    // One sentence each: no line break inside a problem, one full stop at its end.
    for (const line of lines) expect(line).toMatch(/[^.]\.$/);
  }, 60_000);

  it('names an unknown model, a value the model refuses and an input it would ignore', async () => {
    const { code, out } = await doctor({
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.base,
      REPLICATE_COLORIZER_MODEL: 'acme/no-such-colorizer',
      REPLICATE_VIDEO_MODEL: 'kling',
      REPLICATE_VIDEO_INPUT: '{"duration":6,"aspect_ratio":"16:9"}',
    });
    expect(code).toBe(1);
    expect(problemLines(out)).toEqual([
      '- REPLICATE_COLORIZER_MODEL names acme/no-such-colorizer, which Replicate does not have: check the name on replicate.com, or use a preset (ddcolor, deoldify, kling, hailuo, wan, seedance).',
      '- REPLICATE_VIDEO_MODEL (kwaivgi/kling-v2.1) accepts 5, 10 for "duration", not 6: change "duration" in REPLICATE_VIDEO_INPUT.',
      '- REPLICATE_VIDEO_MODEL (kwaivgi/kling-v2.1) has no input "aspect_ratio", so that value would be ignored: remove "aspect_ratio" from REPLICATE_VIDEO_INPUT.',
    ]);
  }, 60_000);

  it(`on a good configuration exits 0 and says what it checked${pg.available ? '' : ` (without a database: ${pg.note})`}`, async () => {
    const { code, out } = await doctor({
      ...(server ? { DATABASE_URL: server.url } : {}),
      SUPABASE_URL: 'https://abc.supabase.co',
      SUPABASE_SECRET_KEY: 'sb_secret_0123456789',
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.base,
      REPLICATE_COLORIZER_MODEL: 'ddcolor',
      REPLICATE_VIDEO_MODEL: 'kling',
    });
    expect(code).toBe(0);
    expect(problemLines(out)).toEqual([]);
    if (server) expect(out).toContain('ok: Database: connected to 127.0.0.1 (this machine), no TLS.');
    expect(out).toContain('ok: Supabase Storage: SUPABASE_SECRET_KEY holds a secret (sb_secret_…) key.');
    expect(out).toContain('ok: REPLICATE_COLORIZER_MODEL: piddnad/ddcolor takes the photo under "image" and every input sent (version ddc0).');
    expect(out).toContain('ok: REPLICATE_VIDEO_MODEL: kwaivgi/kling-v2.1 takes the photo under "start_image" and every input sent (official model).');
    expect(out).toContain('No problems found.');
  }, 60_000);

  it('with nothing configured exits 0 and says the built-in engines run', async () => {
    const { code, out } = await doctor({});
    expect(code).toBe(0);
    expect(out).toContain('ok: Nothing hosted is configured: the built-in colorizer and video engine run');
    expect(out).toContain('ok: DATABASE_URL is not set');
  }, 60_000);
});

describe('the checks behind it', () => {
  it('tells the Supabase key kinds apart: the new sb_ keys by prefix, the legacy JWTs by role', () => {
    const jwt = (role: string) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ role })).toString('base64url')}.sig`;
    expect([supabaseKeyKind('sb_secret_x'), supabaseKeyKind('sb_publishable_x'), supabaseKeyKind(jwt('service_role')), supabaseKeyKind(jwt('anon')), supabaseKeyKind('x')]).toEqual([
      'secret',
      'publishable',
      'service_role',
      'anon',
      'unknown',
    ]);
  });

  it('a publishable key where the secret one belongs is a problem', async () => {
    forgetModels();
    const report = await runDoctor({ SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_SECRET_KEY: 'sb_publishable_abc' });
    expect(report.problems).toEqual([
      'SUPABASE_SECRET_KEY holds a publishable key, which cannot write the private bucket: replace it with the secret key (sb_secret_…, or the legacy service_role key) from Project Settings → API Keys.',
    ]);
  });
});

describe("the operator's /api/health details", () => {
  it('carry the same deploy check: a model whose schema lacks the photo key is named there too', async () => {
    forgetModels();
    for (const [k, v] of Object.entries({ REPLICATE_API_TOKEN: fake.token, REPLICATE_API_URL: fake.base, REPLICATE_VIDEO_MODEL: 'acme/i2v', REPLICATE_VIDEO_IMAGE_KEY: 'image', DATABASE_URL: '' })) vi.stubEnv(k, v);
    try {
      const res = await health(operatorHealthRequest('http://localhost/api/health'), {} as never);
      const body = (await res.json()) as { deploy: { problems: string[]; notes: string[] } };
      expect(body.deploy.problems).toContain('REPLICATE_VIDEO_MODEL (acme/i2v) takes no input named "image", so the photo would be dropped: set REPLICATE_VIDEO_IMAGE_KEY=first_frame.');
      // The public answer says nothing of it.
      const pub = await (await health(new Request('http://localhost/api/health'), {} as never)).json();
      expect(pub).not.toHaveProperty('deploy');
    } finally {
      vi.unstubAllEnvs();
      delete process.env.HEALTH_SECRET;
    }
  }, 60_000);
});
