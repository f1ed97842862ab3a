import { spawn, execFile } from 'node:child_process';
import type { Writable } from 'node:stream';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';

// The binary ships inside the @ffmpeg-installer npm package so a plain `npm install` (and a Netlify
// function bundle that includes it) can encode without any system package. FFMPEG_PATH overrides.
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  const require = createRequire(import.meta.url);
  // Loaded lazily: the installer throws on unsupported platforms, which must surface as "unavailable".
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export type FfmpegCheck = { ok: boolean; path: string; version: string; detail: string };

let cached: Promise<FfmpegCheck> | null = null;

function run(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

/** Runs `ffmpeg -version` and `-encoders` once per process and caches the verdict. */
export function checkFfmpeg(): Promise<FfmpegCheck> {
  cached ??= (async () => {
    let bin = '';
    try {
      bin = ffmpegPath();
      if (!existsSync(bin)) return { ok: false, path: bin, version: '', detail: `ffmpeg not found at ${bin}` };
      const version = (await run(bin, ['-hide_banner', '-version'])).split('\n')[0]?.trim() ?? '';
      const encoders = await run(bin, ['-hide_banner', '-encoders']);
      if (!/\blibx264\b/.test(encoders)) return { ok: false, path: bin, version, detail: 'ffmpeg lacks the libx264 encoder' };
      return { ok: true, path: bin, version, detail: version };
    } catch (err) {
      return { ok: false, path: bin, version: '', detail: `ffmpeg failed to run: ${(err as Error).message ?? err}` };
    }
  })();
  return cached;
}

/** For tests: forget the cached check (e.g. after changing FFMPEG_PATH). */
export function resetFfmpegCheck(): void {
  cached = null;
}

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The render was aborted', 'AbortError');
}

/** What runFfmpeg takes besides the arguments. */
export type FfmpegRun = {
  onFrame?: (frame: number) => void;
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  /**
   * Writes an input (`-i pipe:0`) to ffmpeg's stdin and resolves when it has written it all; a rejection
   * kills ffmpeg and rejects the run with the same error.
   */
  feed?: (stdin: Writable) => Promise<void>;
};

/**
 * Runs ffmpeg with `-progress pipe:1`, reporting each `frame=` count it prints. On abort the process
 * is SIGKILLed and the promise rejects once it has exited (so callers can safely delete its files).
 */
export function runFfmpeg(args: string[], opts: FfmpegRun = {}): Promise<{ stderr: string }> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (child.pid) opts.onSpawn?.(child.pid);
    let stderr = '';
    let pending = '';
    let feedError: unknown = null;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-16_000); // keep the tail: that's where errors are
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^frame=(\d+)/.exec(line);
        if (m) opts.onFrame?.(Number(m[1]));
      }
    });
    const fed = feedInput(child.stdin, opts.feed);
    fed.catch((error: unknown) => {
      feedError = error;
      child.kill('SIGKILL');
    });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(abortError(signal));
      else if (feedError) reject(feedError);
      else if (code === 0) fed.then(() => resolve({ stderr }), reject);
      else {
        const last = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new FfmpegError(`ffmpeg exited with ${code ?? sig}: ${last}`, stderr));
      }
    });
  });
}

/** Runs the feed, then closes stdin; a broken pipe (ffmpeg stopped reading or died) ends the feed quietly. */
async function feedInput(stdin: Writable, feed?: (stdin: Writable) => Promise<void>): Promise<void> {
  let broken = false;
  stdin.on('error', () => {
    broken = true;
  });
  try {
    await feed?.(stdin);
  } catch (error) {
    if (!broken) throw error;
  }
  stdin.end();
}

/** How many frame buffers are in flight at once: one being filled while the others drain into the pipe. */
const FRAME_BUFFERS = 3;

/**
 * Streams `count` frames of `bytes` each into `stdin`, `fill(n, buffer)` making frame n. A few buffers are
 * reused: a frame is only refilled once its bytes are in the pipe, so at most that many frames wait and ffmpeg
 * sets the pace, while the next frames are made as ffmpeg encodes. Stops early when the pipe closes or
 * `signal` aborts.
 */
export async function writeFrames(
  stdin: Writable,
  count: number,
  bytes: number,
  fill: (n: number, buffer: Buffer) => void,
  signal?: AbortSignal,
): Promise<void> {
  const buffers = Array.from({ length: FRAME_BUFFERS }, () => Buffer.allocUnsafe(bytes));
  const written: Promise<void>[] = buffers.map(() => Promise.resolve());
  for (let n = 0; n < count; n++) {
    if (signal?.aborted || stdin.destroyed || stdin.writableEnded) return;
    const k = n % FRAME_BUFFERS;
    await written[k];
    fill(n, buffers[k]!);
    written[k] = new Promise((resolve) => stdin.write(buffers[k], () => resolve()));
  }
  await Promise.all(written);
}
