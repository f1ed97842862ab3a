import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import getPort from 'get-port';
import { copyProject } from '../../scripts/tools/project-copy';

export interface DevServer {
  url: string;
  /** The copy of the project the server runs in (its src/content/ is the one the editor writes). */
  root: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `npm run dev` (scripts/platform/dev.ts) as a person runs it, in a copy of the project, on a free port, in its own process
 * group. `env` points it at the e2e run's embedded database, so it starts none of its own. Ready when `readyPath`
 * answers 200.
 */
export async function startDevServer(env: Record<string, string>, readyPath = '/admin'): Promise<DevServer> {
  const root = copyProject('lumora-dev-');
  const port = await getPort();
  // The test runner's own variables (NODE_ENV=test, VITEST_*) would change how Astro's dev server behaves.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
  const child: ChildProcess = spawn('npx', ['tsx', 'scripts/platform/dev.ts'], {
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
