import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { projectFile, rgbBufferToLab, boxMean, guidedCoefficients, guideMeans } from '../shared';
import type { ChromaPlanes, Colorizer, LumaPlane } from './colorizer';
import { openImage } from './inspect';

// Exemplar-based colour transfer after Welsh, Ashikhmin & Mueller (2002), "Transferring color to
// greyscale images", pooled over a small shipped library instead of one hand-picked reference.
// Every pixel of every reference is described by a few luminance features (L*, fine and coarse
// texture, surrounding brightness, and how smoothly it connects to the top edge of the frame, which
// is what tells sky from a wall), with luminance remapped to one canonical scale. For each target
// pixel the references' colours near it in that feature space are gathered per hue sector with a
// Gaussian kernel (Nadaraya–Watson), rebalanced against the library's overall hue frequencies and
// resolved with the "annealed mean" of Zhang, Isola & Efros (2016): the dominant colour of similar
// areas rather than the brownish average of all of them. The picture's overall cast is then pulled
// to a typical photo's and the chroma is smoothed along L* edges. A statistical method, not a learned
// model: colours are plausible for the kind of area, not knowledge of the true colours (colour hints
// fix what matters to the buyer).

/** The bundled reference library (shipped with the functions through netlify.toml `included_files`). */
export const REFERENCE_DIR = projectFile('engines/image/reference/');

type Features = { L: Float32Array; spread: Float32Array; ctx: Float32Array; coarse: Float32Array; open: Float32Array };
type Reference = {
  name: string; width: number; height: number; a: Float32Array; b: Float32Array;
  /** Matching features at the reference's own size, computed once; remapped per target (linear in L*). */
  f: Features; mean: number; std: number;
};

/**
 * Per-pixel matching features: L*, 5×5 standard deviation (fine texture), the mean L* around it
 * (context, 1/36 of the long side), the fine texture averaged over 1/16 of the long side (coarse
 * texture: a sky or a wall is smooth at both scales, foliage and crowds are not) and the geodesic
 * distance to the top edge.
 */
function features(L: Float32Array, w: number, h: number, person?: Float32Array): Features {
  const sq = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) sq[i] = L[i] * L[i];
  const m = boxMean(L, w, h, 2), m2 = boxMean(sq, w, h, 2);
  const spread = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) spread[i] = Math.sqrt(Math.max(0, m2[i] - m[i] * m[i]));
  const r = Math.max(3, Math.round(Math.max(w, h) / 36));
  const R = Math.max(4, Math.round(Math.max(w, h) / 16));
  return { L, spread, ctx: boxMean(L, w, h, r), coarse: boxMean(spread, w, h, R), open: person ? closedToPeople(topDistance(m, w, h, person), person) : topDistance(m, w, h) };
}

/** Person probability from which a pixel is a person's for the top-edge feature. */
const PERSON = 0.5;
/** The `open` value a person's pixels take: past the feature axis' end (0.5), as enclosed as a wall's inside. */
const ENCLOSED = 0.5;

/**
 * A person is never sky: their pixels read as enclosed, whatever path of smooth L* joins them to the top of the
 * frame (a light coat against a pale sky, a head against a bright wall), so the transfer does not paint people
 * with the colours of what opens onto the top (and what lies behind them keeps its own reading: paths around
 * the person still reach it, paths through the person do not).
 */
function closedToPeople(open: Float32Array, person: Float32Array): Float32Array {
  for (let i = 0; i < open.length; i++) if (person[i]! >= PERSON) open[i] = Math.max(open[i]!, ENCLOSED);
  return open;
}

/** Cost of crossing an L* step, per L* unit above the first (grain that survived restoration is free). */
const EDGE_COST = 0.03;
const EDGE_FREE = 1;

/**
 * Geodesic distance from the top edge of the frame, in long sides, where every step also costs the
 * L* difference it crosses: sky (and what is seen through to it) is reached by a short smooth path,
 * a wall or a face inside an outline is not. Takes a lightly smoothed L*; three pairs of raster
 * sweeps approximate the shortest paths well enough for a feature.
 */
export function topDistance(L: Float32Array, w: number, h: number, person?: Float32Array): Float32Array {
  const d = new Float32Array(w * h).fill(Infinity);
  for (let x = 0; x < w; x++) d[x] = 0;
  const step = 1 / Math.max(w, h);
  const relax = (i: number, j: number, len: number) => {
    if (person && person[j]! >= PERSON) return; // no path runs through a person
    const c = d[j] + step * len + EDGE_COST * Math.max(0, Math.abs(L[i] - L[j]) - EDGE_FREE);
    if (c < d[i]) d[i] = c;
  };
  for (let pass = 0; pass < 3; pass++) {
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (x > 0) relax(i, i - 1, 1);
      if (y > 0) {
        relax(i, i - w, 1);
        if (x > 0) relax(i, i - w - 1, Math.SQRT2);
        if (x < w - 1) relax(i, i - w + 1, Math.SQRT2);
      }
    }
    for (let y = h - 1; y >= 0; y--) for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (x < w - 1) relax(i, i + 1, 1);
      if (y < h - 1) {
        relax(i, i + w, 1);
        if (x < w - 1) relax(i, i + w + 1, Math.SQRT2);
        if (x > 0) relax(i, i + w - 1, Math.SQRT2);
      }
    }
  }
  return d;
}

/** Long side the references are compared at (the shipped photos are stored at this size). */
const REFERENCE_SIDE = 320;

/** Decodes one reference photo (at most REFERENCE_SIDE on its long side) and computes its features. */
async function decodeReference(bytes: Buffer, name: string): Promise<Reference> {
  const { data, info } = await openImage(bytes)
    .resize(REFERENCE_SIDE, REFERENCE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const lab = rgbBufferToLab(data, info.width, info.height, info.channels);
  const [mean, std] = meanStd(lab.L);
  return { name, width: info.width, height: info.height, a: lab.a, b: lab.b, mean, std, f: features(lab.L, info.width, info.height) };
}

/**
 * Decodes a reference library (≈ 55 photos of ≤ 320 px) and computes its features. Not cached: only
 * the colour grid built from it is kept, so the photos' planes are freed once it is built.
 */
export async function loadReferenceLibrary(dir = REFERENCE_DIR): Promise<Reference[]> {
  const manifest = JSON.parse(await readFile(dir + 'manifest.json', 'utf8')) as { images: { file: string }[] };
  return Promise.all(manifest.images.map(async ({ file }) => decodeReference(await readFile(dir + file), file)));
}

function meanStd(x: Float32Array): [number, number] {
  let s = 0, s2 = 0;
  for (let i = 0; i < x.length; i++) {
    s += x[i];
    s2 += x[i] * x[i];
  }
  const m = s / x.length;
  return [m, Math.sqrt(Math.max(1e-6, s2 / x.length - m * m))];
}

/** The library's median per-photo mean colour: the cast of a typical photo. */
function typicalCast(refs: Reference[]): [number, number] {
  const median = (v: number[]) => v.sort((p, q) => p - q)[v.length >> 1];
  const mean = (x: Float32Array) => x.reduce((p, q) => p + q, 0) / x.length;
  return [median(refs.map((r) => mean(r.a))), median(refs.map((r) => mean(r.b)))];
}

// The feature space is a regular grid with one axis per feature. Every pixel of every reference is
// splatted into its nearest cell, the grid is blurred with a Gaussian (the regression kernel,
// separable per axis), and each target pixel reads its cell's colour back by multilinear
// interpolation: a kernel regression over all reference pixels at the cost of a few grid passes,
// independent of the library's size.
type Axis = { cells: number; max: number; sigma: number; value: (f: Features, i: number) => number };
/** Luminance-like features are remapped (Welsh et al.) into the canonical space below, texture features only scaled. */
type Remap = { k: number; from: number; to: number };
const level = (v: number, m: Remap) => (v - m.from) * m.k + m.to;
const axes = (m: Remap): Axis[] => [
  { cells: 4, max: 0.5, sigma: 0.15, value: (f, i) => f.open[i] },
  { cells: 26, max: 100, sigma: 7, value: (f, i) => level(f.L[i], m) },
  { cells: 9, max: 24, sigma: 6, value: (f, i) => f.spread[i] * m.k },
  { cells: 11, max: 100, sigma: 10, value: (f, i) => level(f.ctx[i], m) },
  { cells: 7, max: 18, sigma: 4, value: (f, i) => f.coarse[i] * m.k },
];

/** Hue sectors of the colour vote; sector 0 holds near-neutral colours (chroma below NEUTRAL). */
const HUES = 12;
const NEUTRAL = 6;
/** Mix of the library's hue frequencies and a uniform prior in the rebalancing (Zhang et al. use 0.5). */
const REBALANCE_UNIFORM = 0.5;

function hueSector(a: number, b: number): number {
  if (a * a + b * b < NEUTRAL * NEUTRAL) return 0;
  const turn = Math.atan2(b, a) / (2 * Math.PI) + 1;
  return 1 + (Math.floor(turn * HUES) % HUES);
}

export type ExemplarOptions = {
  /** Another reference library (a folder with manifest.json), e.g. a business's own photos. */
  dir?: string;
  /**
   * One colour photo (JPEG, PNG or TIFF bytes) to take the colours from instead of the library: the
   * buyer's own photo of the same place, person or kind of scene. Validated by the caller.
   */
  reference?: Buffer;
  /** Overall chroma gain. */
  gain?: number;
  /** Annealed-mean temperature: 1 averages the sectors by their votes, towards 0 takes the winner. */
  anneal?: number;
};

const DEFAULTS = { gain: 1, anneal: 0.38 }; // 0.38: Zhang et al.'s annealed-mean temperature

/** Fractional grid coordinate of a feature value. */
const coord = (ax: Axis, v: number) => Math.min(ax.cells - 1, Math.max(0, (v / ax.max) * (ax.cells - 1)));

/** Separable Gaussian blur of a grid array along one axis (σ in cells). */
function blurAxis(src: Float64Array, dims: number[], axis: number, sigma: number): Float64Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const kern = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const stride = dims.slice(axis + 1).reduce((p, q) => p * q, 1);
  const n = dims[axis];
  const out = new Float64Array(src.length);
  for (let base = 0; base < src.length; base++) {
    const pos = Math.floor(base / stride) % n;
    let s = 0;
    for (let k = -r; k <= r; k++) {
      const q = pos + k;
      if (q >= 0 && q < n) s += kern[k + r] * src[base + k * stride];
    }
    out[base] = s;
  }
  return out;
}

/**
 * Luminance features are compared in a canonical space (mean 50, standard deviation 20 L*) into which
 * both the references and the target are remapped (Welsh et al.'s luminance remapping), so the colour
 * grid depends only on the library and is built once per process.
 */
const canonical = (mean: number, std: number): Remap => ({ k: 20 / std, from: mean, to: 50 });
const AXES = axes(canonical(0, 20));
const DIMS = AXES.map((ax) => ax.cells);
const STRIDES = DIMS.map((_, d) => DIMS.slice(d + 1).reduce((p, q) => p * q, 1));

type ColourGrid = { a: Float32Array; b: Float32Array; cast: [number, number] };
const grids = new Map<string, Promise<ColourGrid>>();

/**
 * The grid built from the shipped library is shipped with it (`colour-grid.bin`, written by
 * `npx tsx scripts/training/build-reference-library.ts --grid`): building it takes ≈ 2 s, which every cold
 * function would pay otherwise.
 * It is used only when its key matches a hash of the manifest, every reference file, gain and anneal;
 * a library without one, or with a changed photo, is built from its photos. A change to the method
 * itself is caught by tests/unit/image/exemplar.test.ts, which compares the shipped grid with a fresh build.
 */
export const GRID_FILE = 'colour-grid.bin';

async function gridKey(dir: string, gain: number, anneal: number): Promise<string> {
  const manifest = await readFile(dir + 'manifest.json', 'utf8');
  const hash = createHash('sha256').update(manifest);
  for (const { file } of JSON.parse(manifest).images as { file: string }[]) hash.update(await readFile(dir + file));
  return hash.update(`|${gain}|${anneal}`).digest('hex');
}

/** File layout: uint32 header length, JSON header { key, cells, cast }, then a and b as float32. */
function encodeGrid(grid: ColourGrid, key: string): Buffer {
  const head = Buffer.from(JSON.stringify({ key, cells: grid.a.length, cast: grid.cast }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  return Buffer.concat([len, head, Buffer.from(grid.a.buffer, grid.a.byteOffset, grid.a.byteLength), Buffer.from(grid.b.buffer, grid.b.byteOffset, grid.b.byteLength)]);
}

function decodeGrid(buf: Buffer, key: string): ColourGrid | null {
  const len = buf.readUInt32LE(0);
  const head = JSON.parse(buf.subarray(4, 4 + len).toString('utf8')) as { key: string; cells: number; cast: [number, number] };
  if (head.key !== key || buf.length !== 4 + len + head.cells * 8) return null;
  const floats = new Float32Array(buf.buffer.slice(buf.byteOffset + 4 + len, buf.byteOffset + buf.length));
  return { a: floats.subarray(0, head.cells), b: floats.subarray(head.cells), cast: head.cast };
}

/** The grid shipped in a library folder, or null when there is none or it does not match the library. */
export async function loadShippedGrid(dir = REFERENCE_DIR, gain = DEFAULTS.gain, anneal = DEFAULTS.anneal): Promise<ColourGrid | null> {
  const shipped = await readFile(dir + GRID_FILE).catch(() => null);
  return shipped && decodeGrid(shipped, await gridKey(dir, gain, anneal));
}

/** Builds the default grid of a library folder and writes it next to its photos. */
export async function writeColourGrid(dir = REFERENCE_DIR): Promise<void> {
  const { gain, anneal } = DEFAULTS;
  await writeFile(dir + GRID_FILE, encodeGrid(buildGrid(await loadReferenceLibrary(dir), gain, anneal), await gridKey(dir, gain, anneal)));
}

/** Grids of single reference photos kept per process (≈ 0.4 s to build each; a hint re-render reuses it). */
const REFERENCE_GRIDS_KEPT = 4;

function colourGrid(opts: ExemplarOptions, gain: number, anneal: number): Promise<ColourGrid> {
  const { dir = REFERENCE_DIR, reference } = opts;
  const cacheKey = reference ? `reference|${createHash('sha256').update(reference).digest('hex')}|${gain}|${anneal}` : `${dir}|${gain}|${anneal}`;
  let grid = grids.get(cacheKey);
  if (!grid) {
    grid = reference
      ? decodeReference(reference, 'reference').then((ref) => buildGrid([ref], gain, anneal))
      : loadShippedGrid(dir, gain, anneal).then(async (shipped) => shipped ?? buildGrid(await loadReferenceLibrary(dir), gain, anneal));
    if (reference) {
      const kept = [...grids.keys()].filter((k) => k.startsWith('reference|'));
      if (kept.length >= REFERENCE_GRIDS_KEPT) grids.delete(kept[0]!); // Map keeps insertion order: oldest first
    }
    grids.set(cacheKey, grid);
    grid.catch(() => grids.delete(cacheKey)); // a failed load is retried next time
  }
  return grid;
}

/** The colour grid of a library's photos (what `colour-grid.bin` holds for the defaults). */
export function buildGrid(refs: Reference[], gain = DEFAULTS.gain, anneal = DEFAULTS.anneal): ColourGrid {
  const dims = DIMS, strides = STRIDES;
  const cells = dims.reduce((p, q) => p * q, 1);
  // Per cell and hue sector: weight, Σa, Σb. Sector 0 collects near-neutral pixels.
  const planes = (HUES + 1) * 3;
  let grid: Float64Array[] = Array.from({ length: planes }, () => new Float64Array(cells));
  for (const r of refs) {
    const weight = 1 / (r.width * r.height); // each photo counts once, whatever its size
    const ax = axes(canonical(r.mean, r.std));
    for (let i = 0; i < r.width * r.height; i++) {
      let c = 0;
      for (let q = 0; q < ax.length; q++) c += Math.round(coord(ax[q], ax[q].value(r.f, i))) * strides[q];
      const a = r.a[i], b = r.b[i];
      const s = hueSector(a, b) * 3;
      grid[s][c] += weight;
      grid[s + 1][c] += weight * a;
      grid[s + 2][c] += weight * b;
    }
  }
  for (let q = 0; q < AXES.length; q++) {
    const sigma = (AXES[q].sigma / AXES[q].max) * (AXES[q].cells - 1);
    grid = grid.map((g) => blurAxis(g, dims, q, sigma));
  }
  // Per cell: the annealed mean over hue sectors (Zhang et al. 2016): sharpening the sector
  // distribution picks the dominant colour of similar areas instead of the brownish average of all.
  // Class rebalancing (Zhang et al.): common hues (the browns and oranges most photos are full of)
  // would otherwise win every ambiguous cell.
  let wMax = 0;
  const total = new Float64Array(cells), prior = new Float64Array(HUES + 1);
  for (let i = 0; i < cells; i++) {
    for (let k = 0; k <= HUES; k++) {
      total[i] += grid[k * 3][i];
      prior[k] += grid[k * 3][i];
    }
    wMax = Math.max(wMax, total[i]);
  }
  const psum = prior.reduce((p, q) => p + q, 0);
  const rebalance = Array.from(prior, (p) => 1 / ((1 - REBALANCE_UNIFORM) * (p / psum) + REBALANCE_UNIFORM / (HUES + 1)));
  const cellA = new Float32Array(cells), cellB = new Float32Array(cells);
  const inv = 1 / anneal;
  for (let i = 0; i < cells; i++) {
    const ws = total[i];
    if (ws < wMax * 1e-6) continue; // nothing similar in the library: leave it neutral
    let norm = 0, sa = 0, sb = 0;
    for (let k = 0; k <= HUES; k++) {
      const wk = grid[k * 3][i];
      if (wk <= ws * 1e-9) continue;
      const q = Math.pow((rebalance[k] * wk) / ws, inv);
      norm += q;
      sa += q * grid[k * 3 + 1][i] / wk;
      sb += q * grid[k * 3 + 2][i] / wk;
    }
    cellA[i] = gain * sa / norm;
    cellB[i] = gain * sb / norm;
  }

  return { a: cellA, b: cellB, cast: typicalCast(refs) };
}

export async function exemplarColorize(input: LumaPlane, opts: ExemplarOptions = {}): Promise<ChromaPlanes> {
  const { gain, anneal } = { ...DEFAULTS, ...opts };
  const { L, width: w, height: h } = input;
  const { a: cellA, b: cellB, cast } = await colourGrid(opts, gain, anneal);
  const [mt, st] = meanStd(L);
  const target = axes(canonical(mt, st)), strides = STRIDES;

  // Read back with multilinear interpolation over the 2^D corners around each pixel's coordinate.
  const f = features(L, w, h, input.person);
  const a = new Float32Array(w * h), b = new Float32Array(w * h);
  const D = target.length;
  // Each corner's weight and cell, corner k taking the upper cell along axis q where bit q of k is set. The
  // weights are built axis by axis, each the product of its axes' factors in axis order (as one product per
  // corner would be), so the 2^D products share their common factors.
  const wgt = new Float64Array(1 << D), cell = new Int32Array(1 << D);
  for (let i = 0; i < w * h; i++) {
    wgt[0] = 1;
    cell[0] = 0;
    for (let q = 0, n = 1; q < D; q++, n *= 2) {
      const v = coord(target[q], target[q].value(f, i));
      const lo = Math.min(target[q].cells - 2, Math.floor(v));
      const t = v - lo;
      for (let k = 0; k < n; k++) {
        wgt[k + n] = wgt[k] * t;
        cell[k + n] = cell[k] + (lo + 1) * strides[q];
        wgt[k] *= 1 - t;
        cell[k] += lo * strides[q];
      }
    }
    let sa = 0, sb = 0;
    for (let k = 0; k < 1 << D; k++) {
      if (wgt[k] > 0) {
        sa += wgt[k] * cellA[cell[k]];
        sb += wgt[k] * cellB[cell[k]];
      }
    }
    a[i] = sa;
    b[i] = sb;
  }

  // Cast balance: pull the picture's overall colour cast towards a typical photo's (the library's
  // median per-photo mean; a single reference photo's own mean), keeping the differences between areas.
  {
    let ma = 0, mb = 0;
    for (let i = 0; i < a.length; i++) {
      ma += a[i];
      mb += b[i];
    }
    ma /= a.length;
    mb /= a.length;
    const [ta, tb] = cast;
    for (let i = 0; i < a.length; i++) {
      a[i] -= ma - ta;
      b[i] -= mb - tb;
    }
  }
  // Edge-aware chroma smoothing guided by L*: removes the salt-and-pepper of per-pixel matching
  // while keeping colour boundaries on luminance edges.
  const r = Math.max(2, Math.round(Math.max(w, h) / 64));
  const guide = guideMeans(L, w, h, r);
  const ga = guidedCoefficients(L, a, w, h, r, 25, guide), gb = guidedCoefficients(L, b, w, h, r, 25, guide);
  for (let i = 0; i < a.length; i++) {
    a[i] = ga.A[i] * L[i] + ga.B[i];
    b[i] = gb.A[i] * L[i] + gb.B[i];
  }
  return { a, b, width: w, height: h };
}

export function exemplarColorizer(opts: ExemplarOptions = {}): Colorizer {
  return {
    id: 'exemplar',
    description: opts.reference
      ? 'Colour transfer from your reference photo (after Welsh et al. 2002): each area takes the most common colour of similar-looking areas of the photo you supplied, then the colour is smoothed along edges.'
      : 'Offline exemplar colour transfer (after Welsh et al. 2002): each area takes the most common colour of similar-looking areas (brightness, texture, surroundings, whether it opens onto the top of the frame) in a small bundled reference library, then the colour is smoothed along edges.',
    async colorize(input) {
      return exemplarColorize(input, opts);
    },
  };
}
