import { readFileSync, rmSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * PGlite has no lock: two processes opening one folder silently lose data. A lockfile holding the owner's
 * pid turns a second `npm start` (or a test run) on the same folder into a clear error. A lock left by a
 * dead process is taken over.
 */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is already in use by process ${pid} (another "npm start" or test run). ` +
        'Stop that process first, or point this one at another folder or at a DATABASE_URL.',
    );
    this.name = 'DataDirInUseError';
  }
}

export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, 'embedded.lock');
  const token = `${process.pid}:${Date.now()}:${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(token);
      await handle.close();
      const onExit = () => releaseSync(lockPath, token);
      process.once('exit', onExit);
      return async () => {
        process.removeListener('exit', onExit);
        if ((await readFile(lockPath, 'utf8').catch(() => '')) === token) await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(lockPath, 'utf8').catch(() => '')).split(':')[0]);
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) throw new DataDirInUseError(dataDir, holder);
      await rm(lockPath, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}: the lockfile keeps reappearing`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseSync(lockPath: string, token: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === token) rmSync(lockPath, { force: true });
  } catch {
    // already gone
  }
}
