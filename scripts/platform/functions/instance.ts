import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import getPort from 'get-port';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const runtimeEntry = createRequire(import.meta.url).resolve('@netlify/serverless-functions-api/server');

/**
 * One warm instance of one function: Netlify's own function runtime (`@netlify/serverless-functions-api`,
 * the code that serves functions on a deploy) in a child process, serving the built bundle over loopback
 * HTTP. It imports the function once and builds each request's `context` (ip, params, geo, requestId …)
 * from the `x-nf-*` headers, exactly as in production. Started on first use; after a crash or a rebuild
 * the next request starts a fresh one. A child process, like a Lambda instance: a function that blocks
 * its event loop or exits does not stall or end the site server.
 */
export class FunctionInstance {
  #child?: ChildProcess;
  #ready?: Promise<number>;

  constructor(
    readonly name: string,
    private readonly entryPath: string,
    /** Where the files the functions read sit (see engines/shared/project-files.ts): the project root. */
    private readonly taskRoot: string,
  ) {}

  /** Port of the running instance, starting it if needed. */
  port(): Promise<number> {
    this.#ready ??= this.#start().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #start(): Promise<number> {
    const port = await getPort({ host: '127.0.0.1' });
    const child = spawn(process.execPath, ['--enable-source-maps', runtimeEntry], {
      env: {
        ...process.env,
        LAMBDA_TASK_ROOT: this.taskRoot,
        NETLIFY_PLAY_ENTRY_PATH: this.entryPath,
        NETLIFY_PLAY_PORT: String(port),
        NETLIFY_PLAY_SERVER_READY_FD: '3',
      },
      // A run whose stdout is a document (`npm run bench` prints JSON) sends the functions' logs to stderr.
      stdio: ['ignore', process.env.FUNCTION_LOGS_TO_STDERR === '1' ? 2 : 'inherit', 'inherit', 'pipe'],
    });
    this.#child = child;
    child.once('exit', (code, signal) => {
      if (this.#child !== child) return;
      this.#child = undefined;
      this.#ready = undefined;
      if (code !== 0 && signal !== 'SIGTERM') console.error(`[functions] ${this.name} exited (${signal ?? `code ${code}`}); the next request starts it again`);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`function ${this.name} did not start within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
      const done = (error?: Error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      child.stdio[3]!.once('data', () => done());
      child.once('exit', (code) => done(new Error(`function ${this.name} exited with code ${code} while starting`)));
      child.once('error', done);
    }).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
    return port;
  }

  /**
   * Ends an instance stuck in work past its time limit at once (SIGKILL: a process busy computing never
   * runs a SIGTERM handler), as Netlify ends a function that times out; the next `port()` starts a new one.
   */
  kill(): void {
    const child = this.#child;
    this.#child = undefined;
    this.#ready = undefined;
    child?.kill('SIGKILL');
  }

  /** Stops the instance (a rebuild, or the server closing); the next `port()` starts a new one. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    this.#ready = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(force);
  }
}
