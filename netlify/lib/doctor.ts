import pg from 'pg';
import { databaseConnection, explainDatabaseError } from './db/connection';
import { supabaseServerKey } from './storage';
import { ReplicateError, type ReplicateConnection, type ReplicateModel } from './providers/replicate-client';
import { checkInput, describeModel, imageInputOf, type InputProblem } from './providers/replicate-models';
import { REPLICATE_PRESETS } from './providers/replicate-presets';
import { replicateConfig as colorizerConfig } from './providers/replicate-colorizer-config';
import { replicateConfigFromEnv as videoConfig } from './providers/replicate-video-config';

/**
 * The deploy check behind `npm run doctor` and the operator's `/api/health` details: it connects to the configured
 * database with the configured TLS, reads the Supabase keys' kind, and for each configured hosted model fetches its
 * input schema and names a key the photo would be lost under, a required input nobody sends, an input the model
 * would ignore or a value it refuses. Each problem is one plain sentence that ends with its fix; `notes` say what
 * is fine (including "nothing hosted is configured", the embedded default).
 */
export interface DoctorReport {
  problems: string[];
  notes: string[];
}

type Env = Record<string, string | undefined>;

/** Names an operator might use for the server's Supabase key that the site does not read. */
const SITE_SUPABASE_KEYS = new Set(['SUPABASE_SECRET_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_URL']);

async function checkDatabase(env: Env, report: DoctorReport): Promise<void> {
  if (!env.DATABASE_URL?.trim()) {
    report.notes.push('DATABASE_URL is not set: `npm start` runs its embedded database; a deploy needs Supabase\'s connection string (docs/deploy.md).');
    return;
  }
  let settings;
  try {
    settings = databaseConnection(env);
  } catch (error) {
    report.problems.push((error as Error).message);
    return;
  }
  const client = new pg.Client({ connectionString: settings.connectionString, ssl: settings.ssl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
    report.notes.push(`Database: connected to ${settings.describe}.`);
  } catch (error) {
    const explained = explainDatabaseError(error, env);
    report.problems.push(explained === error ? `The database did not answer (${(error as Error).message}): check DATABASE_URL against Supabase's Connect dialog; see docs/deploy.md.` : (explained as Error).message);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The kind of a Supabase API key: the new `sb_…` keys by prefix, the legacy JWTs by their `role` claim. */
export function supabaseKeyKind(key: string): 'secret' | 'publishable' | 'service_role' | 'anon' | 'unknown' {
  if (key.startsWith('sb_secret_')) return 'secret';
  if (key.startsWith('sb_publishable_')) return 'publishable';
  const payload = key.split('.')[1];
  if (!payload) return 'unknown';
  try {
    const role = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { role?: unknown }).role;
    return role === 'service_role' ? 'service_role' : role === 'anon' ? 'anon' : 'unknown';
  } catch {
    return 'unknown';
  }
}

function checkSupabase(env: Env, report: DoctorReport): void {
  const stray = Object.keys(env).filter((name) => /^SUPABASE_\w*KEY$/.test(name) && !SITE_SUPABASE_KEYS.has(name) && env[name]?.trim());
  const key = supabaseServerKey(env);
  const url = env.SUPABASE_URL?.trim();
  for (const name of stray) {
    const kind = supabaseKeyKind(env[name]!.trim());
    if (kind === 'publishable' || kind === 'anon') continue; // a browser key under its own name: not read, not wrong
    if (!key) report.problems.push(`${name} is not a name this site reads, so storage stays on local disk: rename it to SUPABASE_SECRET_KEY.`);
  }
  if (!url && !key) {
    report.notes.push('Supabase Storage is not configured: files are kept on local disk (fine for `npm start`; a deploy needs SUPABASE_URL and SUPABASE_SECRET_KEY).');
    return;
  }
  if (url && !key) {
    if (!stray.length) report.problems.push('SUPABASE_URL is set but no server key is: set SUPABASE_SECRET_KEY to the secret key (sb_secret_…) from Project Settings → API Keys.');
    return;
  }
  if (!url) {
    report.problems.push('A Supabase key is set but SUPABASE_URL is not: set SUPABASE_URL to https://<project-ref>.supabase.co.');
    return;
  }
  const name = env.SUPABASE_SECRET_KEY?.trim() ? 'SUPABASE_SECRET_KEY' : 'SUPABASE_SERVICE_ROLE_KEY';
  const kind = supabaseKeyKind(key!);
  if (kind === 'publishable' || kind === 'anon') {
    report.problems.push(`${name} holds a ${kind === 'anon' ? 'legacy anon' : 'publishable'} key, which cannot write the private bucket: replace it with the secret key (sb_secret_…, or the legacy service_role key) from Project Settings → API Keys.`);
  } else {
    report.notes.push(`Supabase Storage: ${name} holds a ${kind === 'unknown' ? 'server' : kind === 'secret' ? 'secret (sb_secret_…)' : 'legacy service_role'} key.`);
  }
}

/** One hosted model's check: the model exists, and what the site sends fits its input schema. */
async function checkModel(
  report: DoctorReport,
  what: { variable: string; keyVariable: string; inputVariable: string; conn: ReplicateConnection; model: ReplicateModel; imageKey: string; input: Record<string, unknown> },
): Promise<void> {
  const name = what.model.model ? `${what.model.model}${what.model.version ? `:${what.model.version.slice(0, 8)}` : ''}` : `version ${what.model.version}`;
  let info;
  try {
    info = await describeModel(what.conn, what.model);
  } catch (error) {
    if (error instanceof ReplicateError && (error.status === 401 || error.status === 403)) {
      report.problems.push(`Replicate refused REPLICATE_API_TOKEN (HTTP ${error.status}): create a token at replicate.com/account/api-tokens and set it again.`);
    } else if (error instanceof ReplicateError && error.status === 404) {
      report.problems.push(`${what.variable} names ${name}, which Replicate does not have: check the name on replicate.com, or use a preset (${REPLICATE_PRESETS.map((p) => p.id).join(', ')}).`);
    } else {
      report.problems.push(`Replicate could not be asked about ${name} (${(error as Error).message}): check REPLICATE_API_URL and the network, then run the check again.`);
    }
    return;
  }
  if (!info.input) {
    report.notes.push(`${what.variable}: ${name} runs ${info.official ? 'on its official endpoint' : `at version ${info.version?.slice(0, 8)}`}, but Replicate serves no input schema to check it against.`);
    return;
  }
  const fixes: Record<InputProblem['kind'], (p: InputProblem) => string> = {
    'image-key': () => {
      const suggestion = imageInputOf(info.input!);
      return suggestion ? `set ${what.keyVariable}=${suggestion}` : `pick a model that takes an image`;
    },
    'missing-required': (p) => `add "${p.key}" to ${what.inputVariable}`,
    ignored: (p) => `remove "${p.key}" from ${what.inputVariable}`,
    'bad-value': (p) => `change "${p.key}" in ${what.inputVariable}`,
  };
  const problems = checkInput(info.input, what.imageKey, what.input);
  for (const p of problems) report.problems.push(`${what.variable} (${name}) ${p.text}: ${fixes[p.kind](p)}.`);
  if (!problems.length) {
    report.notes.push(`${what.variable}: ${name} takes the photo under "${what.imageKey}" and every input sent (${info.official ? 'official model' : `version ${info.version?.slice(0, 8)}`}).`);
  }
}

async function checkReplicate(env: Env, report: DoctorReport): Promise<void> {
  const token = env.REPLICATE_API_TOKEN?.trim();
  const colorizerSet = !!(env.REPLICATE_COLORIZER_MODEL?.trim() || env.REPLICATE_COLORIZER_VERSION?.trim());
  const videoSet = !!env.REPLICATE_VIDEO_MODEL?.trim();
  if (!colorizerSet && !videoSet) {
    report.notes.push('Nothing hosted is configured: the built-in colorizer and video engine run (that is fine; REPLICATE_COLORIZER_MODEL or REPLICATE_VIDEO_MODEL switch hosted models on).');
    return;
  }
  if (!token) {
    report.problems.push(`${colorizerSet ? 'REPLICATE_COLORIZER_MODEL' : 'REPLICATE_VIDEO_MODEL'} is set but REPLICATE_API_TOKEN is not, so the built-in engines run instead: set REPLICATE_API_TOKEN.`);
    return;
  }
  const colorizer = colorizerConfig(env as NodeJS.ProcessEnv);
  if (colorizer) {
    await checkModel(report, {
      variable: 'REPLICATE_COLORIZER_MODEL',
      keyVariable: 'REPLICATE_COLORIZER_INPUT_KEY',
      inputVariable: 'REPLICATE_COLORIZER_INPUT',
      conn: colorizer,
      model: colorizer,
      imageKey: colorizer.inputKey,
      input: colorizer.input,
    });
  }
  const video = env.VIDEO_ENGINE?.trim() === 'embedded' ? null : videoConfig(env);
  if (video) {
    const aspect = video.preset?.aspectRatio;
    const { model, version } = { model: video.model.split(':')[0], version: video.model.split(':')[1] };
    await checkModel(report, {
      variable: 'REPLICATE_VIDEO_MODEL',
      keyVariable: 'REPLICATE_VIDEO_IMAGE_KEY',
      inputVariable: 'REPLICATE_VIDEO_INPUT',
      conn: video,
      model: { model, version: version || undefined },
      imageKey: video.imageKey,
      input: { ...(aspect ? { [aspect.key]: aspect.choices[0] } : {}), ...video.extraInput },
    });
  }
}

/** Every check, in the order an operator fixes them: database, storage, hosted models. */
export async function runDoctor(env: Env = process.env): Promise<DoctorReport> {
  const report: DoctorReport = { problems: [], notes: [] };
  await checkDatabase(env, report);
  checkSupabase(env, report);
  await checkReplicate(env, report);
  return report;
}

const HEALTH_TTL_MS = 5 * 60_000;
let lastReport: { at: number; key: string; report: Promise<DoctorReport> } | null = null;

/** The report for the operator's health details, kept 5 minutes (it asks Replicate and opens a connection). */
export function doctorForHealth(env: Env = process.env): Promise<DoctorReport> {
  const key = ['DATABASE_URL', 'DATABASE_CA_CERT', 'SUPABASE_URL', 'REPLICATE_API_TOKEN', 'REPLICATE_COLORIZER_MODEL', 'REPLICATE_VIDEO_MODEL', 'REPLICATE_VIDEO_INPUT']
    .map((k) => env[k] ?? '')
    .join('\n');
  if (lastReport && lastReport.key === key && Date.now() - lastReport.at < HEALTH_TTL_MS) return lastReport.report;
  const report = runDoctor(env).catch((error: unknown) => ({ problems: [`The deploy check itself failed (${(error as Error).message}): run \`npm run doctor\` with the deploy's variables.`], notes: [] }));
  lastReport = { at: Date.now(), key, report };
  return report;
}
