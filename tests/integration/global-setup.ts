import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedServices } from '../../scripts/platform/embedded/embedded-services';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database folder (pgdata) that startEmbedded() copies instead of creating one. */
    embeddedDatabaseTemplate: string;
  }
}

/**
 * One migrated embedded database for the whole integration run, made by `npm start`'s own code. Creating a
 * PGlite database costs about 3 CPU-seconds (initdb inside WebAssembly), opening a copy of one about 0.5, and a
 * dozen files each need a fresh one. The fresh path (initdb and every migration) stays covered by
 * embedded-services.test.ts and by the browser run's server.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-db-template-'));
  const services = await startEmbeddedServices({ dataDir: dir, setEnv: false });
  await services.stop();
  project.provide('embeddedDatabaseTemplate', path.join(dir, 'pgdata'));
  return () => rmSync(dir, { recursive: true, force: true });
}
