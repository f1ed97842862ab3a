// The background behind the subject: what the subject's move uncovers is filled by the image engine's
// exemplar inpainting (texture and edges carried in from the surroundings, no smear), the rest of the hole,
// never seen, by a cheap smooth fill. Luma gets the exemplar fill; chroma, which varies slowly, the smooth one.

import { inpaintPatches } from '../../image';
import type { Yuv420 } from '../yuv';
import { sample } from './planes';

/** Above this many pixels to fill, the exemplar fill runs at half size (its cost grows with the area). */
const FULL_SIZE_FILL_MAX = 40_000;
/** How far (pixels) the exemplar search looks around each filled pixel. */
const SEARCH_RADIUS = 6;

/**
 * Fills `hole` (1 = subject, width × height) in place in the frame. `needed` (same size) marks the hole pixels
 * that will be seen during the clip; they get the exemplar fill.
 */
export function fillBackground(frame: Yuv420, hole: Uint8Array, needed: Uint8Array): void {
  const { width, height } = frame;
  const cw = width >> 1;
  const ch = height >> 1;
  const chromaHole = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const i = y * 2 * width + x * 2;
      chromaHole[y * cw + x] = hole[i]! | hole[i + 1]! | hole[i + width]! | hole[i + width + 1]!;
    }
  }
  const luma = Float32Array.from(frame.y);
  pullPush(luma, hole, width, height);
  exemplarFill(luma, needed, width, height);
  for (let i = 0; i < luma.length; i++) frame.y[i] = Math.min(255, Math.max(0, Math.round(luma[i]!)));
  for (const plane of [frame.u, frame.v]) {
    const values = Float32Array.from(plane);
    pullPush(values, chromaHole, cw, ch);
    for (let i = 0; i < values.length; i++) plane[i] = Math.round(values[i]!);
  }
}

/** Exemplar fill of the marked pixels, at half size when there are many (then enlarged into place). */
function exemplarFill(plane: Float32Array, mask: Uint8Array, width: number, height: number): void {
  let count = 0;
  for (let i = 0; i < mask.length; i++) count += mask[i]!;
  if (count === 0) return;
  if (count <= FULL_SIZE_FILL_MAX || width < 8 || height < 8) {
    inpaintPatches(plane, width, height, mask, { window: SEARCH_RADIUS });
    return;
  }
  const hw = width >> 1;
  const hh = height >> 1;
  const half = new Float32Array(hw * hh);
  const halfMask = new Uint8Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      const i = y * 2 * width + x * 2;
      half[y * hw + x] = (plane[i]! + plane[i + 1]! + plane[i + width]! + plane[i + width + 1]!) / 4;
      halfMask[y * hw + x] = mask[i]! | mask[i + 1]! | mask[i + width]! | mask[i + width + 1]!;
    }
  }
  inpaintPatches(half, hw, hh, halfMask, { window: SEARCH_RADIUS });
  for (let y = 0; y < height; y++) {
    const fy = Math.min(hh - 1, Math.max(0, (y - 0.5) / 2));
    const y0 = Math.min(hh - 2, Math.floor(fy));
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      const fx = Math.min(hw - 1, Math.max(0, (x - 0.5) / 2));
      const x0 = Math.min(hw - 2, Math.floor(fx));
      const tx = fx - x0;
      const j = y0 * hw + x0;
      const top = half[j]! + (half[j + 1]! - half[j]!) * tx;
      const bottom = half[j + hw]! + (half[j + hw + 1]! - half[j + hw]!) * tx;
      plane[i] = top + (bottom - top) * ty;
    }
  }
}

/**
 * Smooth fill of the masked pixels (pull-push, Gortler et al. 1996): known values are averaged down a pyramid
 * until every cell has one, then pushed back up (bilinear) into the holes only.
 */
export function pullPush(plane: Float32Array, mask: Uint8Array, width: number, height: number): void {
  let any = false;
  for (let i = 0; i < mask.length && !any; i++) any = !mask[i];
  if (!any) return;
  const levels: { value: Float32Array; weight: Float32Array; width: number; height: number }[] = [];
  let value = new Float32Array(width * height);
  let weight = new Float32Array(width * height);
  for (let i = 0; i < value.length; i++) {
    weight[i] = mask[i] ? 0 : 1;
    value[i] = mask[i] ? 0 : plane[i]!;
  }
  let w = width;
  let h = height;
  levels.push({ value, weight, width: w, height: h });
  while (w > 1 || h > 1) {
    const nw = Math.max(1, Math.ceil(w / 2));
    const nh = Math.max(1, Math.ceil(h / 2));
    const nv = new Float32Array(nw * nh);
    const nwt = new Float32Array(nw * nh);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const j = (y >> 1) * nw + (x >> 1);
        nv[j] += value[y * w + x]! * weight[y * w + x]!;
        nwt[j] += weight[y * w + x]!;
      }
    }
    for (let j = 0; j < nv.length; j++) {
      nv[j] = nwt[j]! > 0 ? nv[j]! / nwt[j]! : 0;
      nwt[j] = Math.min(1, nwt[j]!);
    }
    value = nv;
    weight = nwt;
    w = nw;
    h = nh;
    levels.push({ value, weight, width: w, height: h });
  }
  for (let l = levels.length - 2; l >= 0; l--) {
    const fine = levels[l]!;
    const coarse = levels[l + 1]!;
    for (let y = 0; y < fine.height; y++) {
      for (let x = 0; x < fine.width; x++) {
        const i = y * fine.width + x;
        const c = sample(coarse.value, coarse.width, coarse.height, (x + 0.5) / 2 - 0.5, (y + 0.5) / 2 - 0.5);
        const wt = fine.weight[i]!;
        fine.value[i] = wt * fine.value[i]! + (1 - wt) * c;
      }
    }
  }
  const finest = levels[0]!.value;
  for (let i = 0; i < plane.length; i++) if (mask[i]) plane[i] = finest[i]!;
}
