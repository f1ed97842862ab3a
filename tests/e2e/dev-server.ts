import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface DevServer {
  url: string;
  /** The copy of the project the server runs in (its src/content/ is the one the editor writes). */
  root: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * A copy of the project's files (what git tracks or would track, without ignored build output) with the
 * checkout's node_modules linked in: a dev server there writes content, and clears the build output Astro's
 * Netlify adapter clears on start, without touching the checkout or a build other tests use.
 */
function copyProject(): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'lumora-dev-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: checkout, encoding: 'utf8' });
  for (const file of files.split('\0').filter(Boolean)) {
    cpSync(path.join(checkout, file), path.join(copy, file), { recursive: true, errorOnExist: false });
  }
  symlinkSync(path.join(checkout, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

/**
 * `npm run dev` (scripts/dev.ts) as a person runs it, in a copy of the project, on a free port, in its own process
 * group. `env` points it at the e2e run's embedded database, so it starts none of its own. Ready when `readyPath`
 * answers 200.
 */
export async function startDevServer(env: Record<string, string>, readyPath = '/admin'): Promise<DevServer> {
  const root = copyProject();
  const port = await getPort();
  // The test runner's own variables (NODE_ENV=test, VITEST_*) would change how Astro's dev server behaves.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
  const child: ChildProcess = spawn('npx', ['tsx', 'scripts/dev.ts'], {
    cwd: root,
    env: { ...inherited, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      process.kill(-child.pid, 'SIGINT');
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(root, { recursive: true, force: true });
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited (${child.exitCode}):\n${output.slice(-4000)}`);
    const status = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(30_000) }).then((r) => r.status, () => 0);
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm run dev did not answer ${readyPath} in time (last status ${status}):\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { url, root, output: () => output, stop };
}
