import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on a 2-core machine (about 40 s to 5 min each while others run beside them),
 * longest first, as a fresh clone's full run measured them. A long file that starts last runs alone at the end
 * while the other workers idle.
 * A file missing here only costs time: add one when it grows past about 40 s (`npx vitest run` prints each
 * file's time).
 */
const LONGEST = [
  'tests/e2e/editor.test.ts',
  'tests/e2e/accessibility.test.ts',
  'tests/e2e/tool-image.test.ts',
  'tests/e2e/production.test.ts',
  'tests/e2e/tool-video.test.ts',
  'tests/integration/platform/deploy-bundle.test.ts',
  'tests/e2e/content-islands.test.ts',
  'tests/integration/tool/process-video.test.ts',
  'tests/integration/video/parallax.test.ts',
  'tests/integration/video/render.test.ts',
  'tests/integration/video/parallax-paths.test.ts',
  'tests/e2e/content-routes.test.ts',
  'tests/integration/abuse/previews.test.ts',
  'tests/integration/outbox/delivery.test.ts',
  'tests/integration/tool/video-options.test.ts',
  'tests/integration/tool/image-heal.test.ts',
  'tests/e2e/agent-hub.test.ts',
  'tests/e2e/blog.test.ts',
  'tests/e2e/csp-build.test.ts',
  'tests/e2e/tool-video-options.test.ts',
  'tests/e2e/shell.test.ts',
];

/**
 * Longest first across all three projects. Vitest's own order runs the projects one after the other (by name)
 * and, without a record of earlier runs (a fresh clone, CI), orders each project's files by size, which put the
 * two-minute accessibility pass and the deploy-size check late. With a duration recorded for every file (a
 * machine that has run the tests before), those durations decide.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byDefault = await super.sort(files);
    const durations = files.map((spec) => this.ctx.cache.getTestSpecificationResult(spec)?.duration);
    if (durations.every((d) => d !== undefined)) {
      const duration = new Map(files.map((spec, i) => [spec, durations[i]!]));
      return byDefault.toSorted((a, b) => duration.get(b)! - duration.get(a)!);
    }
    const rank = (spec: TestSpecification) => {
      const i = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return i < 0 ? LONGEST.length : i;
    };
    return byDefault.toSorted((a, b) => rank(a) - rank(b));
  }
}
