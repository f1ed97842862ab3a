// The vision models: each model's file size, its cold load (once per process), and per photo the time of each
// stage (faces: BlazeFace and FaceMesh; people: selfie segmentation; subjects: NanoDet), wall and CPU, the
// median of `runs`, with what each found. Photos: the repository's astronaut portrait and spaniel sample, and
// the portrait fixtures in ../shared when present.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { analysePhoto, decodeForVision, ALL_MODELS, loadModels, MODELS_DIR } from '../engines/vision';
import { cpuClock, hostLoad, quantile } from './timing';

const PHOTOS = [
  'engines/image/reference/astronaut.jpg',
  'public/media/samples/spaniel-window.jpg',
  '../shared/fixtures/photos/input/flower_hat.jpg',
  '../shared/fixtures/photos/input/polynesian_dancers.jpg',
  '../shared/fixtures/photos/input/street_scene.jpg',
];

export async function benchVision({ runs = 3 }: { runs?: number } = {}) {
  const load = hostLoad();
  const models: Record<string, { megabytes: number; loadWallMs: number; loadCpuMs: number }> = {};
  for (const id of ALL_MODELS) {
    const bytes = ['json', 'bin'].reduce((s, ext) => s + statSync(path.join(MODELS_DIR, `${id}.${ext}`)).size, 0);
    const cpu = cpuClock();
    const wall = performance.now();
    await loadModels([id]);
    models[id] = { megabytes: round(bytes / 1048576, 2), loadWallMs: Math.round(performance.now() - wall), loadCpuMs: Math.round(cpu()) };
  }
  const photos = [];
  for (const file of PHOTOS.filter((f) => existsSync(f))) {
    const image = await decodeForVision(readFileSync(file));
    await analysePhoto(image); // warm: the first run of a model on a new input size compiles its kernels
    const samples: Record<string, { wall: number[]; cpu: number[] }> = {};
    let last;
    for (let r = 0; r < runs; r++) {
      last = await analysePhoto(image);
      for (const [stage, t] of Object.entries(last.timings)) {
        if (stage === 'load') continue;
        (samples[stage] ??= { wall: [], cpu: [] }).wall.push(t.wallMs);
        samples[stage].cpu.push(t.cpuMs);
      }
    }
    photos.push({
      photo: path.basename(file),
      size: `${image.width}×${image.height}`,
      stages: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, { wallMs: quantile(v.wall, 0.5), cpuMs: quantile(v.cpu, 0.5) }])),
      faces: last!.faces.map((f) => ({ width: Math.round(f.box.width), score: round(f.score, 2), frontal: f.frontal, pose: f.pose })),
      people: { coverage: round(last!.people!.coverage, 3), found: last!.people!.people.map((p) => p.source) },
      subjects: last!.subjects.slice(0, 5).map((s) => `${s.label} ${s.score}`),
    });
  }
  return { backend: 'wasm (SIMD, one thread)', runs, models, photos, loadBefore: load, loadAfter: hostLoad() };
}

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
