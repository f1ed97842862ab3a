import { describe, expect, it } from 'vitest';
import { folderCycles } from '../../../scripts/tools/check-cycles';

// The folder half of the cycle check `npm run lint` runs (scripts/tools/check-cycles.ts); the file half is madge's.
describe('folder cycles', () => {
  it('finds two sibling folders that import each other, with the imports that close the loop', () => {
    const found = folderCycles({
      'netlify/lib/orders/order.ts': ['netlify/lib/mail/mask.ts'],
      'netlify/lib/mail/confirmation.ts': ['netlify/lib/orders/order.ts'],
      'netlify/lib/mail/mask.ts': [],
    });
    expect(found).toEqual([
      {
        folders: ['netlify/lib/mail', 'netlify/lib/orders'],
        example: ['netlify/lib/mail/confirmation.ts → netlify/lib/orders/order.ts', 'netlify/lib/orders/order.ts → netlify/lib/mail/mask.ts'],
      },
    ]);
  });

  it('finds a loop that passes through a file beside the folders, and one at the top level', () => {
    expect(folderCycles({ 'lib/a/x.ts': ['lib/shared.ts'], 'lib/shared.ts': ['lib/b/y.ts'], 'lib/b/y.ts': ['lib/a/x.ts'] }).map((c) => c.folders)).toEqual([['lib/a', 'lib/b']]);
    expect(folderCycles({ 'bench/run.ts': ['tests/support/scans.ts'], 'tests/unit/s.test.ts': ['bench/scans.ts'], 'bench/scans.ts': [], 'tests/support/scans.ts': [] }).map((c) => c.folders)).toEqual([['bench', 'tests']]);
  });

  it('lets a folder and its own sub-folders use each other, and one-way use between siblings', () => {
    expect(folderCycles({
      'engines/image/index.ts': ['engines/image/fill/heal.ts', 'engines/shared/planes.ts'],
      'engines/image/fill/heal.ts': ['engines/image/index.ts', 'engines/shared/planes.ts'],
      'engines/video/render.ts': ['engines/image/index.ts'],
      'engines/shared/planes.ts': [],
    })).toEqual([]);
  });
});
