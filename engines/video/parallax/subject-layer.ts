// The subject layer drawn into each frame: its planes (colour with the edge cleaned, alpha) warped by the
// subject's map, inside one fixed box that holds the subject wherever it moves. The map is computed on a grid
// of nodes and interpolated between them (it is smooth); each pixel is a bilinear sample, so slow moves stay
// sub-pixel smooth. Grid cells whose source lies wholly outside the subject are skipped, cells wholly inside
// overwrite the frame (the background under them need not be drawn at all), edge cells blend by alpha.

import { progressAt } from '../motion';
import { Motion, subjectSource, subjectTarget, type SubjectFactors } from './plan';
import { ONE, sampleAt, sampleFixed } from '../sampling';

/** The subject at output size: yuv420p colour planes plus a full-size alpha plane (0..255). */
export type SubjectPlanes = { width: number; height: number; y: Uint8Array; u: Uint8Array; v: Uint8Array; a: Uint8Array };

/** An even-aligned rectangle of the output frame. */
export type Box = { x: number; y: number; width: number; height: number };

/** Grid step (output pixels) of the map's nodes; also the side of the source's alpha blocks. */
const STEP = 8;

const EMPTY = 0;
const SOLID = 1;
const EDGE = 2;
/** Flag added to a cell's kind when its source is well inside the planes (no clamping needed). */
const INSIDE = 4;

/** v clamped to 0..max (a sample position kept inside its plane). */
const clampTo = (v: number, max: number) => (v < 0 ? 0 : v > max ? max : v);


/**
 * The box (even position and size) that holds the subject in every frame: its silhouette carried through the
 * move (every 5th frame and the last; the margin covers the steps between), clipped to the frame.
 */
export function subjectBox(motion: Motion, sf: SubjectFactors, mask: Uint8Array, margin: number): Box {
  const { width, height, path } = motion;
  const scaleX = width / sf.width;
  const scaleY = height / sf.height;
  const points: [number, number][] = [];
  for (let y = 0; y < sf.height; y++) {
    for (let x = 0; x < sf.width; x++) {
      const i = y * sf.width + x;
      if (!mask[i]) continue;
      const rim = x === 0 || y === 0 || x === sf.width - 1 || y === sf.height - 1;
      if (rim || !mask[i - 1] || !mask[i + 1] || !mask[i - sf.width] || !mask[i + sf.width]) points.push([(x + 0.5) * scaleX, (y + 0.5) * scaleY]);
    }
  }
  const frames: number[] = [];
  for (let n = 0; n < path.frames; n += 5) frames.push(n);
  frames.push(path.frames - 1);
  const out = new Float64Array(2);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of frames) {
    const progress = progressAt(path, n);
    for (const [u, v] of points) {
      subjectTarget(motion, sf, progress, u, v, out);
      x0 = Math.min(x0, out[0]!);
      y0 = Math.min(y0, out[1]!);
      x1 = Math.max(x1, out[0]!);
      y1 = Math.max(y1, out[1]!);
    }
  }
  const pad = margin + Math.max(scaleX, scaleY);
  const left = Math.max(0, Math.floor((x0 - pad) / 2) * 2);
  const top = Math.max(0, Math.floor((y0 - pad) / 2) * 2);
  const right = Math.min(width, Math.ceil((x1 + pad) / 2) * 2);
  const bottom = Math.min(height, Math.ceil((y1 + pad) / 2) * 2);
  return { x: left, y: top, width: Math.max(2, right - left), height: Math.max(2, bottom - top) };
}

/** Draws the subject layer; one instance per clip (it keeps its working buffers). */
export class SubjectRenderer {
  private readonly cols: number;
  private readonly rows: number;
  private readonly nodeU: Float32Array;
  private readonly nodeV: Float32Array;
  /** Each node's parallax factor in the previous frame: the next frame's first guess. */
  private readonly nodeK: Float32Array;
  private readonly cells: Uint8Array;
  private readonly edge = new Float64Array(4);
  /** Per STEP × STEP block of the source alpha: its smallest and largest value. */
  private readonly blockMin: Uint8Array;
  private readonly blockMax: Uint8Array;
  private readonly blocksX: number;
  private readonly blocksY: number;

  constructor(
    private readonly layer: SubjectPlanes,
    private readonly motion: Motion,
    private readonly factors: SubjectFactors,
    readonly box: Box,
  ) {
    this.cols = Math.ceil(box.width / STEP) + 1;
    this.rows = Math.ceil(box.height / STEP) + 1;
    this.nodeU = new Float32Array(this.cols * this.rows);
    this.nodeV = new Float32Array(this.cols * this.rows);
    this.nodeK = new Float32Array(this.cols * this.rows).fill(1);
    this.cells = new Uint8Array(this.cols * this.rows);
    this.blocksX = Math.ceil(layer.width / STEP);
    this.blocksY = Math.ceil(layer.height / STEP);
    this.blockMin = new Uint8Array(this.blocksX * this.blocksY).fill(255);
    this.blockMax = new Uint8Array(this.blocksX * this.blocksY);
    for (let y = 0; y < layer.height; y++) {
      for (let x = 0; x < layer.width; x++) {
        const b = Math.floor(y / STEP) * this.blocksX + Math.floor(x / STEP);
        const a = layer.a[y * layer.width + x]!;
        if (a < this.blockMin[b]!) this.blockMin[b] = a;
        if (a > this.blockMax[b]!) this.blockMax[b] = a;
      }
    }
  }

  /** Computes frame n's map and which grid cells are empty, solid or on the edge. Call before covers() and draw(). */
  prepare(n: number): void {
    const { box, cols, rows, nodeU, nodeV } = this;
    const progress = progressAt(this.motion.path, n);
    const uv = new Float64Array(3);
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const node = j * cols + i;
        subjectSource(this.motion, this.factors, progress, box.x + i * STEP, box.y + j * STEP, uv, this.nodeK[node]!);
        nodeU[node] = uv[0]!;
        nodeV[node] = uv[1]!;
        this.nodeK[node] = uv[2]!;
      }
    }
    this.classifyCells();
  }

  /**
   * The runs of output row y (luma pixels) the subject will overwrite completely this frame: pairs
   * [start, end) in `out`, returning how many numbers it wrote.
   */
  covers(y: number, out: Int32Array): number {
    const { box, cols, cells } = this;
    if (y < box.y || y >= box.y + box.height) return 0;
    const gy = Math.floor((y - box.y) / STEP);
    let count = 0;
    for (let gx = 0; gx * STEP < box.width; gx++) {
      if (cells[gy * cols + gx] !== (SOLID | INSIDE)) continue;
      const start = box.x + gx * STEP;
      const end = box.x + Math.min(box.width, (gx + 1) * STEP);
      if (count > 0 && out[count - 1] === start) out[count - 1] = end;
      else {
        out[count++] = start;
        out[count++] = end;
      }
    }
    return count;
  }

  /** Draws the prepared frame into yuv420p planes of the output frame (width `frameWidth`). */
  draw(y: Uint8Array, u: Uint8Array, v: Uint8Array, frameWidth: number): void {
    this.luma(y, frameWidth);
    this.chroma(u, v, frameWidth >> 1);
  }

  /** Each grid cell: its source wholly transparent, wholly opaque, or across the edge. */
  private classifyCells(): void {
    const { cols, rows, nodeU, nodeV, blocksX, blocksY } = this;
    for (let j = 0; j < rows - 1; j++) {
      for (let i = 0; i < cols - 1; i++) {
        const n = j * cols + i;
        const u0 = Math.min(nodeU[n]!, nodeU[n + 1]!, nodeU[n + cols]!, nodeU[n + cols + 1]!);
        const u1 = Math.max(nodeU[n]!, nodeU[n + 1]!, nodeU[n + cols]!, nodeU[n + cols + 1]!);
        const v0 = Math.min(nodeV[n]!, nodeV[n + 1]!, nodeV[n + cols]!, nodeV[n + cols + 1]!);
        const v1 = Math.max(nodeV[n]!, nodeV[n + 1]!, nodeV[n + cols]!, nodeV[n + cols + 1]!);
        // One pixel of slack: bilinear samples reach the next pixel.
        const bx0 = Math.max(0, Math.floor((u0 - 1) / STEP));
        const bx1 = Math.min(blocksX - 1, Math.floor((u1 + 2) / STEP));
        const by0 = Math.max(0, Math.floor((v0 - 1) / STEP));
        const by1 = Math.min(blocksY - 1, Math.floor((v1 + 2) / STEP));
        let lo = 255;
        let hi = 0;
        for (let by = by0; by <= by1; by++) {
          for (let bx = bx0; bx <= bx1; bx++) {
            lo = Math.min(lo, this.blockMin[by * blocksX + bx]!);
            hi = Math.max(hi, this.blockMax[by * blocksX + bx]!);
          }
        }
        const inside = u0 >= 0 && v0 >= 0 && u1 < this.layer.width - 1 && v1 < this.layer.height - 1;
        this.cells[n] = (hi === 0 ? EMPTY : lo === 255 ? SOLID : EDGE) | (inside ? INSIDE : 0);
      }
    }
  }

  /**
   * The source of a row crossing cell n00 at ty (0..1) down it: u and v at its left and right edges, as
   * [left u, right u, left v, right v] in a buffer reused by the next call.
   */
  private across(n00: number, ty: number): Float64Array {
    const { nodeU, nodeV, cols, edge } = this;
    const n01 = n00 + cols;
    edge[0] = nodeU[n00]! + (nodeU[n01]! - nodeU[n00]!) * ty;
    edge[1] = nodeU[n00 + 1]! + (nodeU[n01 + 1]! - nodeU[n00 + 1]!) * ty;
    edge[2] = nodeV[n00]! + (nodeV[n01]! - nodeV[n00]!) * ty;
    edge[3] = nodeV[n00 + 1]! + (nodeV[n01 + 1]! - nodeV[n00 + 1]!) * ty;
    return edge;
  }

  /**
   * Every cell that row y of the box (luma rows from its top; a chroma row's centre lies between two) crosses and
   * that is not empty: `span` gets its kind, its column and the row's source at its left and right edges
   * ([left u, right u, left v, right v], a buffer reused by the next cell).
   */
  private eachCell(y: number, span: (cell: number, gx: number, edge: Float64Array) => void): void {
    const { cols, cells, box } = this;
    const gy = Math.floor(y / STEP);
    const ty = y / STEP - gy;
    for (let gx = 0; gx * STEP < box.width; gx++) {
      const n00 = gy * cols + gx;
      const cell = cells[n00]!;
      if ((cell & 3) !== EMPTY) span(cell, gx, this.across(n00, ty));
    }
  }

  /** Luma: solid cells copy the sample, edge cells blend it by the sampled alpha. */
  private luma(out: Uint8Array, frameWidth: number): void {
    const { box } = this;
    for (let y = 0; y < box.height; y++) {
      const rowStart = (box.y + y) * frameWidth + box.x;
      this.eachCell(y, (cell, gx, edge) => {
        const lu = edge[0]!;
        const lv = edge[2]!;
        const start = rowStart + gx * STEP;
        const end = rowStart + Math.min(box.width, (gx + 1) * STEP);
        const du = (edge[1]! - lu) / STEP;
        const dv = (edge[3]! - lv) / STEP;
        if (cell === (SOLID | INSIDE)) this.solidSpan(lu, lv, du, dv, start, end, out);
        else if (cell & INSIDE) this.blendSpan(lu, lv, du, dv, start, end, out);
        else this.edgeSpan(lu, lv, du, dv, start, end, out);
      });
    }
  }

  /** Pixels start..end of the frame, source from (su, sv) stepping (sdu, sdv), all inside and opaque: 16.16 fixed point. */
  private solidSpan(su: number, sv: number, sdu: number, sdv: number, start: number, end: number, out: Uint8Array): void {
    const { width: W, y: Y } = this.layer;
    let u = (su * ONE) | 0;
    let v = (sv * ONE) | 0;
    const du = (sdu * ONE) | 0;
    const dv = (sdv * ONE) | 0;
    for (let o = start; o < end; o++) {
      out[o] = sampleFixed(Y, W, u, v);
      u += du;
      v += dv;
    }
  }

  /** Across the edge, inside the planes: fixed point, blended over the frame by the sampled alpha. */
  private blendSpan(su: number, sv: number, sdu: number, sdv: number, start: number, end: number, out: Uint8Array): void {
    const { width: W, y: Y, a: A } = this.layer;
    let u = (su * ONE) | 0;
    let v = (sv * ONE) | 0;
    const du = (sdu * ONE) | 0;
    const dv = (sdv * ONE) | 0;
    for (let o = start; o < end; o++) {
      const alpha = sampleFixed(A, W, u, v);
      if (alpha > 0) {
        const under = out[o]!;
        out[o] = under + (((sampleFixed(Y, W, u, v) - under) * alpha * 257 + 32768) >> 16);
      }
      u += du;
      v += dv;
    }
  }

  /** The same near the planes' border: clamped, in floating point. */
  private edgeSpan(su: number, sv: number, du: number, dv: number, start: number, end: number, out: Uint8Array): void {
    const { width: W, height: H, y: Y, a: A } = this.layer;
    const maxU = W - 1.001;
    const maxV = H - 1.001;
    let u = su;
    let v = sv;
    for (let o = start; o < end; o++) {
      const cu = clampTo(u, maxU);
      const cv = clampTo(v, maxV);
      u += du;
      v += dv;
      const alpha = sampleAt(A, W, cu, cv) / 255;
      if (alpha <= 0) continue;
      out[o] = out[o]! + (sampleAt(Y, W, cu, cv) - out[o]!) * alpha + 0.5;
    }
  }

  /**
   * Cb and Cr at half resolution from the same map (chroma pixel centres sit at luma 2x + 0.5, 2y + 0.5, their
   * source at (u - 0.5) / 2); edge cells blend by the alpha sampled at the same point.
   */
  private chroma(uOut: Uint8Array, vOut: Uint8Array, frameWidth: number): void {
    const { box } = this;
    for (let cy = 0; cy < box.height >> 1; cy++) {
      const rowStart = ((box.y >> 1) + cy) * frameWidth + (box.x >> 1);
      this.eachCell(cy * 2 + 0.5, (cell, gx, edge) => {
        const lu = edge[0]!;
        const lv = edge[2]!;
        const ru = edge[1]!;
        const rv = edge[3]!;
        // Luma-space source of the cell's first chroma centre (x = 0.5 into the cell) and the step per chroma pixel.
        const du = ((ru - lu) * 2) / STEP;
        const dv = ((rv - lv) * 2) / STEP;
        const u0 = lu + ((ru - lu) * 0.5) / STEP;
        const v0 = lv + ((rv - lv) * 0.5) / STEP;
        const start = rowStart + gx * (STEP >> 1);
        const end = rowStart + (Math.min(box.width, (gx + 1) * STEP) >> 1);
        if (cell === (SOLID | INSIDE)) this.solidChroma(u0, v0, du, dv, start, end, uOut, vOut);
        else this.edgeChroma(u0, v0, du, dv, start, end, uOut, vOut);
      });
    }
  }

  /** Opaque chroma pixels start..end, from luma-space source (su, sv) stepping (sdu, sdv): 16.16 fixed point. */
  private solidChroma(su: number, sv: number, sdu: number, sdv: number, start: number, end: number, uOut: Uint8Array, vOut: Uint8Array): void {
    const { u: U, v: V } = this.layer;
    const cw = this.layer.width >> 1;
    let u = (((su - 0.5) / 2) * ONE) | 0;
    let v = (((sv - 0.5) / 2) * ONE) | 0;
    const du = ((sdu / 2) * ONE) | 0;
    const dv = ((sdv / 2) * ONE) | 0;
    for (let o = start; o < end; o++) {
      uOut[o] = sampleFixed(U, cw, u, v);
      vOut[o] = sampleFixed(V, cw, u, v);
      u += du;
      v += dv;
    }
  }

  /** Chroma pixels across the edge or near the border: clamped samples, blended by alpha. */
  private edgeChroma(su: number, sv: number, du: number, dv: number, start: number, end: number, uOut: Uint8Array, vOut: Uint8Array): void {
    const { width: W, height: H, u: U, v: V, a: A } = this.layer;
    const cw = W >> 1;
    const maxCu = cw - 1.001;
    const maxCv = (H >> 1) - 1.001;
    const maxU = W - 1.001;
    const maxV = H - 1.001;
    let u = su;
    let v = sv;
    for (let o = start; o < end; o++) {
      const alpha = sampleAt(A, W, clampTo(u, maxU), clampTo(v, maxV)) / 255;
      const cu = clampTo((u - 0.5) / 2, maxCu);
      const cv = clampTo((v - 0.5) / 2, maxCv);
      u += du;
      v += dv;
      if (alpha <= 0) continue;
      uOut[o] = uOut[o]! + (sampleAt(U, cw, cu, cv) - uOut[o]!) * alpha + 0.5;
      vOut[o] = vOut[o]! + (sampleAt(V, cw, cu, cv) - vOut[o]!) * alpha + 0.5;
    }
  }
}
