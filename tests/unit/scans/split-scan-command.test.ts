import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT_WHOLE } from '../../../engines/scans';
import { quadIoU } from '../../../engines/scans/geometry';
import { runCommand } from '../../support/command';
import { generatedPictures, makeScan } from '../../support/scans';

// `npm run split-scan -- SCAN.jpg OUTDIR` as an operator runs it (the same script, through the TypeScript loader).
const dir = mkdtempSync(path.join(os.tmpdir(), 'split-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => runCommand(process.execPath, ['--import', 'tsx', 'scripts/tools/split-scan.ts', ...args], { cwd: process.cwd() });

describe('npm run split-scan', () => {
  it('writes each print as a JPEG and prints.json with its corners in the scan and its angle', async () => {
    const { jpeg, truth } = await makeScan(8101, generatedPictures(5, 6), { kind: 'split', bed: 'white', prints: 3, dpi: 100 });
    const scan = path.join(dir, 'family.jpg');
    writeFileSync(scan, jpeg);
    const out = await run(scan, path.join(dir, 'out'));
    expect(out).toContain('3 prints');
    const written = JSON.parse(readFileSync(path.join(dir, 'out', 'prints.json'), 'utf8'));
    expect(written).toMatchObject({ scan: 'family.jpg', width: truth.width, height: truth.height, keptWhole: null });
    expect(written.prints.map((p: { file: string }) => p.file)).toEqual(['family-1.jpg', 'family-2.jpg', 'family-3.jpg']);
    for (const p of written.prints) {
      expect(p.corners).toHaveLength(4);
      expect(Math.max(...truth.prints.map((t) => Math.max(quadIoU(p.corners, t.corners), quadIoU(p.corners, t.picture))))).toBeGreaterThan(0.85);
      expect(Math.abs(p.angle)).toBeLessThanOrEqual(45);
      const meta = await sharp(path.join(dir, 'out', p.file)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', p.width, p.height]);
    }
  });

  it('writes an empty list and the reason when the scan is kept whole', async () => {
    const { jpeg } = await makeScan(7203, generatedPictures(11, 10), { kind: 'cut', bed: 'white', dpi: 100 });
    const scan = path.join(dir, 'cut.jpg');
    writeFileSync(scan, jpeg);
    const out = await run(scan, path.join(dir, 'whole'));
    expect(out).toContain('kept whole');
    const written = JSON.parse(readFileSync(path.join(dir, 'whole', 'prints.json'), 'utf8'));
    expect(written.prints).toEqual([]);
    expect(written.keptWhole).toEqual({ code: 'cut', reason: KEPT_WHOLE.cut });
  });

  it('stops with a message and exit 1 when the file is not an image', async () => {
    const bad = path.join(dir, 'notes.jpg');
    writeFileSync(bad, 'not an image');
    await expect(run(bad, path.join(dir, 'bad'))).rejects.toThrow(/exit 1[\s\S]*could not be read/);
  });
});
