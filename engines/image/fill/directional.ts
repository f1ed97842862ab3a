// Continuing structures across thin damage. Where a scratch crosses a wire, an edge or a carved line, a fill
// from the surroundings cannot know what lay under it; the structure's own direction can. For each damaged
// pixel the orientation of the picture around it is read from the undamaged pixels (the structure tensor of
// their gradients), and, where that orientation is clear, the pixel is interpolated between the nearest
// undamaged pixels along it, on both sides of the gap. Where the surroundings have no clear direction (texture,
// flat ground), the patch fill stays.

export const DIRECTIONAL = {
  /** Radius (px) of the window whose gradients give the orientation. */
  window: 4,
  /** How far (px) along the orientation undamaged pixels are looked for on each side. */
  reach: 6,
  /** Coherence (0..1) from which the orientation is trusted at all, and at which it is trusted fully. */
  coherenceFrom: 0.3,
  coherenceFull: 0.7,
  /** Gradient energy (L*² per pixel) below which the surroundings count as flat. */
  energy: 4,
};

/** Value of `L` at (x, y) by bilinear interpolation, or NaN when a needed pixel is damaged or outside. */
function sample(L: Float32Array, mask: Uint8Array, w: number, h: number, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) return NaN;
  const i = y0 * w + x0;
  if (mask[i] || mask[i + 1] || mask[i + w] || mask[i + w + 1]) return NaN;
  const fx = x - x0;
  const fy = y - y0;
  const top = L[i]! + fx * (L[i + 1]! - L[i]!);
  const bottom = L[i + w]! + fx * (L[i + w + 1]! - L[i + w]!);
  return top + fy * (bottom - top);
}

/**
 * Orientation of the undamaged picture around (x, y): the unit direction along its isophotes (ux, uy), the
 * coherence of the structure tensor (0 = no direction, 1 = one clear direction) and the mean gradient energy.
 */
function orientation(L: Float32Array, mask: Uint8Array, w: number, h: number, x: number, y: number) {
  const r = DIRECTIONAL.window;
  let jxx = 0;
  let jyy = 0;
  let jxy = 0;
  let n = 0;
  for (let yy = Math.max(1, y - r); yy <= Math.min(h - 2, y + r); yy++) {
    for (let xx = Math.max(1, x - r); xx <= Math.min(w - 2, x + r); xx++) {
      const i = yy * w + xx;
      if (mask[i] || mask[i - 1] || mask[i + 1] || mask[i - w] || mask[i + w]) continue;
      const gx = (L[i + 1]! - L[i - 1]!) / 2;
      const gy = (L[i + w]! - L[i - w]!) / 2;
      jxx += gx * gx;
      jyy += gy * gy;
      jxy += gx * gy;
      n++;
    }
  }
  if (n < 4) return { ux: 0, uy: 0, coherence: 0, energy: 0 };
  const tr = jxx + jyy;
  const disc = Math.sqrt(Math.max(0, (jxx - jyy) ** 2 + 4 * jxy * jxy));
  const coherence = tr > 0 ? disc / tr : 0;
  // The gradient's dominant direction is the tensor's main eigenvector; the isophote runs across it.
  const gx = jxx - jyy + disc;
  const gy = 2 * jxy;
  const norm = Math.hypot(gx, gy);
  if (norm < 1e-9) return { ux: 0, uy: 0, coherence: 0, energy: tr / n };
  return { ux: -gy / norm, uy: gx / norm, coherence, energy: tr / n };
}

/**
 * Replaces the damaged pixels of `L` (w × h, in place) where the surroundings have a clear direction by the
 * interpolation along it, blended with the value already there (the patch fill) by how clear the direction
 * is. `original` is the plane before any fill (the undamaged pixels are read from it). Returns how many
 * pixels changed.
 */
export function continueStructures(L: Float32Array, original: Float32Array, w: number, h: number, mask: Uint8Array): number {
  const { reach, coherenceFrom, coherenceFull, energy } = DIRECTIONAL;
  const values = new Map<number, number>();
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const x = i % w;
    const y = (i - x) / w;
    const o = orientation(original, mask, w, h, x, y);
    if (o.coherence <= coherenceFrom || o.energy < energy) continue;
    let ahead = NaN;
    let behind = NaN;
    let da = 0;
    let db = 0;
    for (let t = 1; t <= reach && (Number.isNaN(ahead) || Number.isNaN(behind)); t++) {
      if (Number.isNaN(ahead)) {
        ahead = sample(original, mask, w, h, x + t * o.ux, y + t * o.uy);
        da = t;
      }
      if (Number.isNaN(behind)) {
        behind = sample(original, mask, w, h, x - t * o.ux, y - t * o.uy);
        db = t;
      }
    }
    if (Number.isNaN(ahead) || Number.isNaN(behind)) continue;
    const along = (ahead * db + behind * da) / (da + db);
    const trust = Math.min(1, (o.coherence - coherenceFrom) / (coherenceFull - coherenceFrom));
    values.set(i, trust * along + (1 - trust) * L[i]!);
  }
  for (const [i, v] of values) L[i] = v;
  return values.size;
}
