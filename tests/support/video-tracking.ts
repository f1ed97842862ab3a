// Feature tracking on a rendered clip, for the parallax measures (benchmark and tests, never the product):
// Shi–Tomasi corners on the first frame, pyramidal Lucas–Kanade from frame to frame to the last one, then the
// share of tracks whose first→last motion departs from the best single camera move (a similarity: zoom,
// rotation, shift), and the similarity each group of tracks (subject, background) follows.
import { execFile } from 'node:child_process';
import { ffmpegPath, sample } from '../../engines/video';
import { mulberry32 } from '../../src/lib/random';

export type Gray = { data: Float32Array; width: number; height: number };

/** Splits raw gray frames of a known size. */
export function splitFrames(raw: Buffer, width: number, height: number): Gray[] {
  const size = width * height;
  const frames: Gray[] = [];
  for (let o = 0; o + size <= raw.length; o += size) frames.push({ data: new Float32Array(raw.subarray(o, o + size)), width, height });
  return frames;
}

/** Raw grayscale bytes of every frame of an MP4. */
export function decodeRawGray(mp4: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      ffmpegPath(),
      ['-v', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr.toString()}`)) : resolve(stdout)),
    );
    child.stdin!.on('error', () => {});
    child.stdin!.end(mp4);
  });
}

function downsample(g: Gray): Gray {
  const width = g.width >> 1;
  const height = g.height >> 1;
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * 2 * g.width + x * 2;
      data[y * width + x] = (g.data[i]! + g.data[i + 1]! + g.data[i + g.width]! + g.data[i + g.width + 1]!) / 4;
    }
  }
  return { data, width, height };
}

const at = (g: Gray, x: number, y: number) => sample(g.data, g.width, g.height, x, y);

/**
 * Shi–Tomasi corners: the smallest eigenvalue of the 7×7 structure tensor, local maxima at least `spacing`
 * pixels apart and `border` from the edges, the strongest `count` of those above 1 % of the best.
 */
export function corners(g: Gray, count = 400, spacing = 10, border = 16): [number, number][] {
  const { width: W, height: H, data } = g;
  const score = new Float32Array(W * H);
  const r = 3;
  for (let y = border; y < H - border; y++) {
    for (let x = border; x < W - border; x++) {
      let xx = 0;
      let xy = 0;
      let yy = 0;
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          const i = (y + dy) * W + x + dx;
          const gx = (data[i + 1]! - data[i - 1]!) / 2;
          const gy = (data[i + W]! - data[i - W]!) / 2;
          xx += gx * gx;
          xy += gx * gy;
          yy += gy * gy;
        }
      }
      const trace = xx + yy;
      score[y * W + x] = trace / 2 - Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
    }
  }
  let best = 0;
  for (const s of score) best = Math.max(best, s);
  const candidates: [number, number, number][] = [];
  for (let y = border; y < H - border; y++) {
    for (let x = border; x < W - border; x++) {
      const s = score[y * W + x]!;
      if (s < best * 0.01) continue;
      const around = [-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1];
      if (around.every((d) => score[y * W + x + d]! <= s)) candidates.push([s, x, y]);
    }
  }
  candidates.sort((a, b) => b[0] - a[0]);
  const taken: [number, number][] = [];
  for (const [, x, y] of candidates) {
    if (taken.length >= count) break;
    if (taken.some(([tx, ty]) => (tx - x) ** 2 + (ty - y) ** 2 < spacing * spacing)) continue;
    taken.push([x, y]);
  }
  return taken;
}

/**
 * One Lucas–Kanade step set at one level: the displacement (from `guess`) of the window around (x, y). The first
 * frame's side (its gradients, their structure tensor) does not move, so it is read once, not on every step.
 */
function lucasKanade(a: Gray, b: Gray, x: number, y: number, guess: [number, number], half: number): [number, number, number] {
  const size = (2 * half + 1) ** 2;
  const gxs = new Float64Array(size);
  const gys = new Float64Array(size);
  const values = new Float64Array(size);
  let xx = 0;
  let xy = 0;
  let yy = 0;
  let k = 0;
  for (let j = -half; j <= half; j++) {
    for (let i = -half; i <= half; i++) {
      const px = x + i;
      const py = y + j;
      const gx = (at(a, px + 1, py) - at(a, px - 1, py)) / 2;
      const gy = (at(a, px, py + 1) - at(a, px, py - 1)) / 2;
      gxs[k] = gx;
      gys[k] = gy;
      values[k] = at(a, px, py);
      xx += gx * gx;
      xy += gx * gy;
      yy += gy * gy;
      k++;
    }
  }
  const det = xx * yy - xy * xy;
  let [dx, dy] = guess;
  let residual = Infinity;
  for (let iteration = 0; iteration < 12; iteration++) {
    let bx = 0;
    let by = 0;
    let err = 0;
    k = 0;
    for (let j = -half; j <= half; j++) {
      for (let i = -half; i <= half; i++) {
        const diff = at(b, x + i + dx, y + j + dy) - values[k]!;
        bx += gxs[k]! * diff;
        by += gys[k]! * diff;
        err += diff * diff;
        k++;
      }
    }
    residual = Math.sqrt(err / size);
    if (det < 1e-6) return [dx, dy, Infinity];
    const ux = (-yy * bx + xy * by) / det;
    const uy = (xy * bx - xx * by) / det;
    dx += ux;
    dy += uy;
    if (ux * ux + uy * uy < 1e-4) break;
  }
  return [dx, dy, residual];
}

/** Pyramidal LK from frame a to frame b for each point; NaN where the track is lost. */
function trackPair(pa: Gray[], pb: Gray[], points: [number, number][], half = 7): [number, number][] {
  return points.map(([x, y]) => {
    if (!Number.isFinite(x)) return [NaN, NaN];
    let guess: [number, number] = [0, 0];
    let residual = 0;
    for (let level = pa.length - 1; level >= 0; level--) {
      const scale = 2 ** level;
      const [dx, dy, r] = lucasKanade(pa[level]!, pb[level]!, x / scale, y / scale, guess, half);
      residual = r;
      guess = level > 0 ? [dx * 2, dy * 2] : [dx, dy];
    }
    const nx = x + guess[0];
    const ny = y + guess[1];
    const a = pa[0]!;
    if (!(residual < 12) || nx < 2 || ny < 2 || nx > a.width - 3 || ny > a.height - 3) return [NaN, NaN];
    return [nx, ny];
  });
}

function pyramid(g: Gray, levels = 3): Gray[] {
  const out = [g];
  for (let l = 1; l < levels; l++) out.push(downsample(out[l - 1]!));
  return out;
}

/**
 * Tracks the first frame's corners through the clip (every `step`-th frame: the pyramid takes the larger
 * steps, and fewer steps drift less) to the last frame; returns start and end points of the tracks kept.
 */
export function trackClip(frames: Gray[], count = 400, step = 3): { start: [number, number][]; end: [number, number][] } {
  const start = corners(frames[0]!, count);
  let points = start.map(([x, y]) => [x, y] as [number, number]);
  let previous = pyramid(frames[0]!);
  const visits: number[] = [];
  for (let n = step; n < frames.length - 1; n += step) visits.push(n);
  visits.push(frames.length - 1);
  for (const n of visits) {
    const next = pyramid(frames[n]!);
    points = trackPair(previous, next, points);
    previous = next;
  }
  const keep = points.map((p) => Number.isFinite(p[0]));
  return { start: start.filter((_, i) => keep[i]), end: points.filter((_, i) => keep[i]) };
}

/** A similarity x' = s·R·x + t as [a, b, tx, ty] with a = s cos θ, b = s sin θ. */
export type Similarity = [number, number, number, number];

/** Least-squares similarity from points p to q. */
export function fitSimilarity(p: [number, number][], q: [number, number][]): Similarity {
  const n = p.length;
  let mpx = 0;
  let mpy = 0;
  let mqx = 0;
  let mqy = 0;
  for (let i = 0; i < n; i++) {
    mpx += p[i]![0];
    mpy += p[i]![1];
    mqx += q[i]![0];
    mqy += q[i]![1];
  }
  mpx /= n;
  mpy /= n;
  mqx /= n;
  mqy /= n;
  let sxx = 0;
  let a = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    const px = p[i]![0] - mpx;
    const py = p[i]![1] - mpy;
    const qx = q[i]![0] - mqx;
    const qy = q[i]![1] - mqy;
    sxx += px * px + py * py;
    a += px * qx + py * qy;
    b += px * qy - py * qx;
  }
  a /= sxx || 1;
  b /= sxx || 1;
  return [a, b, mqx - (a * mpx - b * mpy), mqy - (b * mpx + a * mpy)];
}

export function applySimilarity([a, b, tx, ty]: Similarity, [x, y]: [number, number]): [number, number] {
  return [a * x - b * y + tx, b * x + a * y + ty];
}

/**
 * The best single camera move: the similarity that most tracks follow within `tolerance` pixels (RANSAC over
 * pairs of tracks, refined by least squares on its followers), so the measure is not inflated by a poor fit.
 * Returns it with the share of tracks that depart from it by more than `tolerance`.
 */
export function departingShare(start: [number, number][], end: [number, number][], tolerance = 8): { share: number; move: Similarity } {
  const n = start.length;
  if (n < 3) return { share: 0, move: [1, 0, 0, 0] };
  const random = mulberry32(11);
  const residual = (m: Similarity, i: number) => {
    const [x, y] = applySimilarity(m, start[i]!);
    return Math.hypot(x - end[i]![0], y - end[i]![1]);
  };
  let best: Similarity = fitSimilarity(start, end);
  let bestCount = -1;
  for (let trial = 0; trial < 600; trial++) {
    const i = Math.floor(random() * n);
    const j = Math.floor(random() * n);
    if (i === j) continue;
    const m = fitSimilarity([start[i]!, start[j]!], [end[i]!, end[j]!]);
    let count = 0;
    for (let k = 0; k < n; k++) if (residual(m, k) <= tolerance) count++;
    if (count > bestCount) {
      bestCount = count;
      best = m;
    }
  }
  for (let round = 0; round < 3; round++) {
    const followers = start.map((_, k) => k).filter((k) => residual(best, k) <= tolerance);
    if (followers.length < 2) break;
    best = fitSimilarity(followers.map((k) => start[k]!), followers.map((k) => end[k]!));
  }
  let departing = 0;
  for (let k = 0; k < n; k++) if (residual(best, k) > tolerance) departing++;
  return { share: departing / n, move: best };
}

/** Scale and shift of a similarity, for reports: the shift is the move of the frame's centre. */
export function describe(m: Similarity, width: number, height: number): { scale: number; dx: number; dy: number } {
  const [x, y] = applySimilarity(m, [width / 2, height / 2]);
  return { scale: Math.hypot(m[0], m[1]), dx: x - width / 2, dy: y - height / 2 };
}
