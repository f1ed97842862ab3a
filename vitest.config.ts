import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/sequencer.ts';

// Three layers, one command (`npm test`): unit (pure logic), integration (functions called with
// real Request objects against an embedded database), e2e (real Chromium against `npm start`'s server).
export default defineConfig({
  test: {
    // Most test time is spent waiting (browsers, function processes, the database), not computing: one
    // worker more than the CPUs keeps every core busy while some wait (3 on the 2-core machines CI runs on; a
    // larger machine gets more). Every project's files share those workers, browser files included: they share
    // one server and one Chromium, and builds of their own run in a project copy.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // Time limits are hang guards, not speed targets (those are `npm run bench`): with the whole suite on two cores
    // a file runs up to four times slower than alone (the editor's six tests: 86 s alone, 336 s in the suite).
    // Longest files first, across projects, so no long file is left running alone at the end.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Pure logic: the files share one process per worker instead of a fresh one each (about a third of the
          // project's time went to starting processes and importing). A test that changes the environment or a
          // module's state puts it back (vi.stubEnv with vi.unstubAllEnvs, vi.resetModules).
          isolate: false,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // Server code reached in-process finds the local disk storage adapter, as under `npm start`.
          setupFiles: ['scripts/platform/embedded/local-storage.ts'],
          // One migrated embedded database, copied by each file that starts the embedded platform.
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['scripts/platform/embedded/local-storage.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
