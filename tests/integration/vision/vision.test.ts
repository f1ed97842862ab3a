// The real models on photos that ship in the repository (the colour reference library): the astronaut portrait
// (NASA, public domain) has one frontal face and one person; the spaniel sample an animal and no one.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { analysePhoto, asShares, decodeForVision, findFaces, loadVision, MESH, type PhotoAnalysis } from '../../../engines/vision';
import { analysePortrait } from '../../../engines/image';
import { rgbBufferToL } from '../../../engines/shared';

describe('vision models', () => {
  let astronaut: PhotoAnalysis;
  beforeAll(async () => {
    await loadVision();
    astronaut = await analysePhoto(await decodeForVision(readFileSync('engines/image/reference/astronaut.jpg')));
  });

  it('finds the face, frontal, with its mesh on the face and both eyes open', () => {
    expect(astronaut.faces).toHaveLength(1);
    const [face] = astronaut.faces;
    expect(face!.score).toBeGreaterThan(0.7);
    expect(face!.mesh).toHaveLength(MESH.count);
    // The face sits in the upper middle of the 320 × 320 picture.
    expect(face!.box.x).toBeGreaterThan(90);
    expect(face!.box.x + face!.box.width).toBeLessThan(190);
    expect(face!.box.width).toBeGreaterThan(40);
    expect(face!.frontal).toBe(true);
    // The sitter's left eye is on the image's right.
    expect(face!.eyes.left.centre.x).toBeGreaterThan(face!.eyes.right.centre.x);
    expect(face!.eyes.left.centre.y).toBeLessThan(face!.mesh[MESH.noseTip]!.y);
    for (const eye of [face!.eyes.left, face!.eyes.right]) expect(eye.openness).toBeGreaterThan(0.15);
  });

  it('segments the person at image size, covering the face and not the top corners', () => {
    const people = astronaut.people!;
    expect(people.mask).toHaveLength(320 * 320);
    expect(people.people.length).toBeGreaterThanOrEqual(1);
    const [face] = astronaut.faces;
    const at = (x: number, y: number) => people.mask[Math.round(y) * 320 + Math.round(x)]!;
    expect(at(face!.mesh[MESH.noseTip]!.x, face!.mesh[MESH.noseTip]!.y)).toBeGreaterThan(0.8);
    expect(at(315, 5)).toBeLessThan(0.2);
    expect(people.coverage).toBeGreaterThan(0.2);
    expect(people.coverage).toBeLessThan(0.8);
  });

  it('detects the person among the COCO subjects and times each stage', () => {
    expect(astronaut.subjects.some((s) => s.label === 'person' && s.box.height > 200)).toBe(true);
    expect(astronaut.unavailable).toEqual([]);
    for (const stage of ['faces', 'people', 'subjects'] as const) expect(astronaut.timings[stage]!.cpuMs).toBeGreaterThanOrEqual(0);
  });

  it('finds an animal and no face on the spaniel sample', async () => {
    const photo = await decodeForVision(readFileSync('public/media/samples/spaniel-window.jpg'));
    const result = await analysePhoto(photo, { people: false });
    expect(result.faces).toEqual([]);
    expect(result.subjects.some((s) => ['dog', 'cat'].includes(s.label))).toBe(true);
  });

  it('answers without a model the deployment does not ship, and names it', async () => {
    // The video function ships the face and person models only (netlify.toml): a root holding just those.
    const root = mkdtempSync(path.join(os.tmpdir(), 'vision-root-'));
    const models = path.join(root, 'engines/vision/models');
    mkdirSync(models, { recursive: true });
    for (const id of ['blazeface', 'facemesh', 'selfie'])
      for (const ext of ['json', 'bin']) symlinkSync(path.resolve(`engines/vision/models/${id}.${ext}`), path.join(models, `${id}.${ext}`));
    vi.stubEnv('LAMBDA_TASK_ROOT', root);
    try {
      const photo = await decodeForVision(readFileSync('engines/image/reference/astronaut.jpg'));
      const result = await analysePhoto(photo);
      expect(result.unavailable).toEqual(['nanodet']);
      expect(result.subjects).toEqual([]);
      expect(result.faces).toHaveLength(1);
      expect(result.people!.people.map((p) => p.source)).toEqual(['face']);
      // Boxes found earlier where the detector ships (the video tab's defaults) stand in for it.
      const known = await analysePhoto(photo, { knownSubjects: astronaut.subjects });
      expect(known.unavailable).toEqual([]);
      expect(known.subjects).toEqual(astronaut.subjects);
      expect(known.timings.subjects).toBeUndefined();
      expect(known.people!.people.map((p) => p.source)).toContain('detector');
    } finally {
      vi.unstubAllEnvs();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('lets the colouring of a restored photo take boxes found before as the detector\'s answer', async () => {
    const photo = await decodeForVision(readFileSync('engines/image/reference/astronaut.jpg'));
    const L = rgbBufferToL(photo.data, photo.width * photo.height, 3);
    const known = asShares(astronaut.subjects, astronaut.width, astronaut.height);
    const portrait = (await analysePortrait(L, photo.width, photo.height, known))!;
    expect(portrait.analysis.timings.subjects).toBeUndefined();
    expect(portrait.analysis.subjects.map((s) => s.label)).toEqual(astronaut.subjects.map((s) => s.label));
    expect(portrait.analysis.people!.people.map((p) => p.source)).toContain('detector');
  });

  it('finds no face on a flat grey picture', async () => {
    const grey = { data: new Uint8Array(200 * 150 * 3).fill(128), width: 200, height: 150 };
    expect(await findFaces(grey)).toEqual([]);
  });
});
