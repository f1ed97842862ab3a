import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint rule that keeps each engine behind its public face (scripts/tools/lint/engine-faces.js), run through the
// project's own ESLint configuration on code placed where it would live.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function faceErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'local/engine-faces').map((m) => m.message);
}

describe('lint: an engine is used through its index.ts', () => {
  it('refuses a deep import from server code, naming the face to use', async () => {
    const errors = await faceErrors('netlify/lib/tool/probe.ts', "import { healMarks } from '../../../engines/image/fill/heal';\nexport const x = healMarks;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("import from '../../../engines/image'");
  });

  it('refuses it from bench, scripts, another engine and another room’s tests, and in export-from, import() and vi.mock', async () => {
    expect(await faceErrors('bench/probe.ts', "import { resize } from '../engines/shared/planes';\nexport const x = resize;\n")).toHaveLength(1);
    expect(await faceErrors('scripts/tools/probe.ts', "export { splitScan } from '../../engines/scans/index.ts';\nexport * from '../../engines/scans/detect';\n")).toHaveLength(1);
    expect(await faceErrors('engines/video/probe.ts', "import { inpaintPatches } from '../image/fill/patches';\nexport const x = inpaintPatches;\n")).toHaveLength(1);
    expect(await faceErrors('tests/unit/video/probe.test.ts', "import { vi } from 'vitest';\nvi.mock('../../../engines/image/exemplar');\nexport const load = () => import('../../../engines/vision/runtime');\n")).toHaveLength(2);
  });

  it('lets the face, the room itself and the room’s own tests through', async () => {
    expect(await faceErrors('netlify/lib/tool/probe.ts', "import { healMarks } from '../../../engines/image';\nexport const x = healMarks;\n")).toEqual([]);
    expect(await faceErrors('engines/image/fill/probe.ts', "import { shape } from '../detect/shape';\nexport const x = shape;\n")).toEqual([]);
    expect(await faceErrors('tests/unit/image/probe.test.ts', "import { shape } from '../../../engines/image/detect/shape';\nexport const x = shape;\n")).toEqual([]);
  });
});
