/**
 * `npm test`: `npm run lint`, `npm run typecheck` and `vitest run` side by side; the first failure stops the others.
 *
 * Side by side because vitest keeps both cores of a small machine busy while the two checks, run first, left one
 * idle for most of their 20-odd seconds (`astro check` works on one core). The type check runs in a copy of the
 * project with its own Astro cache (scripts/tools/project-copy.ts): `astro check` clears `.netlify/v1/functions` and
 * rewrites `.astro/` and the content store, which the browser tests' build writes and serves at the same moment.
 *
 * vitest prints as it goes; each check's output is printed whole when it fails, and as one line when it passes.
 * Arguments go to vitest: `npm test -- tests/unit` still lints and type-checks everything.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyProject } from './project-copy';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Step {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** Output kept and printed when the step ends (else it goes straight to the terminal). */
  quiet: boolean;
  /** Runs when the step has ended, whatever its result. */
  cleanUp?: () => void;
}

interface Ended {
  step: Step;
  code: number;
  output: string;
  seconds: number;
}

const stops: (() => void)[] = [];

/** Runs a step in its own process group, so a stop reaches everything it started (vitest's workers, servers). */
function run(step: Step): Promise<Ended> {
  const started = Date.now();
  const child = spawn(step.command, step.args, {
    cwd: step.cwd,
    stdio: step.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  stops.push(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // The group ended between the check and the signal.
    }
  });
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ step, code: 1, output: `${output}${error.message}\n`, seconds: 0 }));
    child.once('close', (code, signal) => resolve({ step, code: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }));
  });
}

const stopAll = () => stops.forEach((stop) => stop());
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    stopAll();
  });
}

const typecheckRoot = copyProject('lumora-typecheck-', { ownCaches: true });
const steps: Step[] = [
  { name: 'vitest', command: 'npx', args: ['vitest', 'run', ...process.argv.slice(2)], cwd: root, quiet: false },
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'], cwd: root, quiet: true },
  {
    name: 'typecheck',
    command: 'npm',
    args: ['run', '--silent', 'typecheck'],
    cwd: typecheckRoot,
    quiet: true,
    cleanUp: () => rmSync(typecheckRoot, { recursive: true, force: true }),
  },
];

let firstFailure: Ended | undefined;
const ended = await Promise.all(
  steps.map(async (step) => {
    const result = await run(step);
    step.cleanUp?.();
    if (result.code !== 0 && !firstFailure) {
      firstFailure = result;
      if (step.quiet) process.stdout.write(`\n✗ ${step.name} failed (exit ${result.code}):\n${result.output}\n`);
      stopAll();
    }
    return result;
  }),
);

for (const { step, code, output, seconds } of ended) {
  if (!step.quiet || code !== 0) continue;
  // astro check ends with its counts: "Result (527 files): - 0 errors - 0 warnings - 14 hints".
  const counts = output.match(/Result \(\d+ files\):[^]*$/)?.[0].trim().replace(/\s*\n\s*/g, ' ');
  console.log(`✓ ${step.name} passed in ${seconds.toFixed(1)} s${counts ? `. ${counts}` : ''}`);
}
if (interrupted) {
  console.log('✗ npm test interrupted.');
  process.exit(130);
}
if (firstFailure) {
  console.log(`✗ npm test stopped: ${firstFailure.step.name} failed first (exit ${firstFailure.code}).`);
  process.exit(firstFailure.code || 1);
}
