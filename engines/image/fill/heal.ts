import { HEAL_RADIUS, type HealMark } from '../../../src/lib/tool/image-schema';
import { eachNeighbour } from '../../shared';
import { addGrain } from './grain';
import { inpaintTelea } from './telea';

// The heal brush: the buyer marks damage the automatic pass left (a short stroke along a scratch, or a click
// on a speck) and the engine removes what stands out there, and only there, with the same fill and grain as
// the automatic pass. It works on the finished luminance, so a heal re-render starts from the cached
// automatic pass and redoes nothing else.

// The marks' schema and limits live with the tool's other shared schemas (the browser checks marks too).
export { HEAL_RADIUS, MAX_HEAL_MARKS, MAX_HEAL_POINTS, healMarkSchema, healMarksSchema, type HealMark } from '../../../src/lib/tool/image-schema';

/** Extra pixels around a mark's brush read for the ground under it. */
const MARGIN = 8;
/** A pixel under the brush is damage when it stands out of the ground by this many grain spreads (at least 1.5 L*). */
const STANDS_OUT = 2.5;
const STANDS_OUT_MIN = 1.5;

/** Radius in pixels of a mark's brush on a W × H picture. */
const brushRadius = (mark: HealMark, W: number, H: number) => Math.max(1, (mark.radius ?? HEAL_RADIUS.default) * Math.max(W, H));

/** Pixels within the brush of each mark (distance to its polyline ≤ radius). */
export function markRegion(marks: HealMark[], W: number, H: number): Uint8Array {
  const region = new Uint8Array(W * H);
  for (const m of marks) {
    const r = brushRadius(m, W, H);
    const pts = m.points.map((p) => [p.x * (W - 1), p.y * (H - 1)] as const);
    const segs = pts.length === 1 ? [[pts[0]!, pts[0]!]] : pts.slice(1).map((p, k) => [pts[k]!, p]);
    for (const [[ax, ay], [bx, by]] of segs) {
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - r));
      const x1 = Math.min(W - 1, Math.ceil(Math.max(ax, bx) + r));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by) - r));
      const y1 = Math.min(H - 1, Math.ceil(Math.max(ay, by) + r));
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const t = len2 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
          if (Math.hypot(x - ax - t * dx, y - ay - t * dy) <= r) region[y * W + x] = 1;
        }
      }
    }
  }
  return region;
}

/**
 * Removes the damage under the buyer's marks, in place, on an L* plane; returns how many pixels changed.
 * Inside the brush the ground is rebuilt from outside it (fast marching); the pixels that stand out from that
 * ground by more than the grain (`sigma`, L* units) on the mark's dominant side (a light scratch or a dark
 * speck), with one pixel of rim, are the damage: they alone are filled and given grain. Everything else under
 * the brush, and everything outside it, is left as it was.
 */
export function healMarks(L: Float32Array, W: number, H: number, marks: HealMark[], sigma: number): number {
  let changed = 0;
  // One mark at a time: each has its own dominant side (a light scratch here, a dark speck there).
  for (const m of marks) changed += healOne(L, W, H, m, sigma);
  return changed;
}

/** One mark, worked on a crop around it (brush plus a margin for the ground), so a 12 MP photo is not copied. */
function healOne(L: Float32Array, W: number, H: number, mark: HealMark, sigma: number): number {
  const r = brushRadius(mark, W, H) + MARGIN;
  const xs = mark.points.map((p) => p.x * (W - 1));
  const ys = mark.points.map((p) => p.y * (H - 1));
  const x0 = Math.max(0, Math.floor(Math.min(...xs) - r));
  const x1 = Math.min(W - 1, Math.ceil(Math.max(...xs) + r));
  const y0 = Math.max(0, Math.floor(Math.min(...ys) - r));
  const y1 = Math.min(H - 1, Math.ceil(Math.max(...ys) + r));
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  const crop = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++) crop.set(L.subarray((y + y0) * W + x0, (y + y0) * W + x0 + cw), y * cw);
  // The mark in crop coordinates (same pixels as on the whole picture).
  const local: HealMark = {
    radius: brushRadius(mark, W, H) / Math.max(cw, ch),
    points: mark.points.map((p) => ({ x: cw > 1 ? (p.x * (W - 1) - x0) / (cw - 1) : 0, y: ch > 1 ? (p.y * (H - 1) - y0) / (ch - 1) : 0 })),
  };
  const changed = healPlane(crop, cw, ch, local, sigma);
  if (changed) for (let y = 0; y < ch; y++) L.set(crop.subarray(y * cw, (y + 1) * cw), (y + y0) * W + x0);
  return changed;
}

function healPlane(L: Float32Array, W: number, H: number, mark: HealMark, sigma: number): number {
  const region = markRegion([mark], W, H);
  const ground = L.slice();
  inpaintTelea(ground, W, H, region, { radius: 5 });
  let light = 0;
  let dark = 0;
  for (let i = 0; i < L.length; i++) {
    if (!region[i]) continue;
    const d = L[i]! - ground[i]!;
    if (d > 0) light += d;
    else dark -= d;
  }
  const sign = light >= dark ? 1 : -1;
  const thr = Math.max(STANDS_OUT_MIN, STANDS_OUT * sigma);
  const core = new Uint8Array(L.length);
  for (let i = 0; i < L.length; i++) if (region[i] && sign * (L[i]! - ground[i]!) > thr) core[i] = 1;
  const damage = new Uint8Array(L.length);
  let changed = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (!region[i] || !nearSet(core, W, H, x, y)) continue;
      damage[i] = 1;
      changed++;
    }
  }
  if (!changed) return 0;
  inpaintTelea(L, W, H, damage, { radius: 4 });
  addGrain(L, damage, sigma, changed);
  return changed;
}

/** Whether (x, y) or one of its 8 neighbours is set. */
function nearSet(set: Uint8Array, W: number, H: number, x: number, y: number): boolean {
  let near = set[y * W + x] === 1;
  eachNeighbour(x, y, W, H, (j) => {
    near ||= set[j] === 1;
  });
  return near;
}
