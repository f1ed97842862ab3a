// Masks (Uint8Array, 1 = set, row-major w × h): their 8-connected regions, each worked inside its own bounding
// box so a 12 MP photo needs no full-size working planes, and growing them by their neighbours.

export type Box = { x0: number; y0: number; x1: number; y1: number };

/** Calls `visit` with the index of each of (x, y)'s 8 neighbours inside the w × h plane. */
export function eachNeighbour(x: number, y: number, w: number, h: number, visit: (j: number) => void): void {
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if ((dx || dy) && xx >= 0 && xx < w) visit(yy * w + xx);
    }
  }
}

/**
 * The 8-connected regions of a mask as their pixels (in no particular order), in order of each one's first pixel,
 * and each region's box grown by `margin`. Needs no plane of the mask's size: a 12 MP mask's damage is a few
 * thousandths of its pixels, and the pages a full-size label plane touches cost more than the regions' search.
 */
export function maskRegions(mask: Uint8Array, W: number, H: number, margin: number): { pixels: Int32Array[]; boxes: Box[] } {
  const seen = new Uint8Array((mask.length + 7) >> 3);
  const pixels: Int32Array[] = [];
  const boxes: Box[] = [];
  // The region being found, also the queue of pixels whose neighbours are still to look at; grown when full.
  let found = new Int32Array(1024);
  const next = setScanner(mask);
  for (let s = next(0); s < mask.length; s = next(s + 1)) {
    if (seen[s >> 3]! & (1 << (s & 7))) continue;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    seen[s >> 3]! |= 1 << (s & 7);
    found[0] = s;
    let n = 1;
    for (let k = 0; k < n; k++) {
      const p = found[k]!;
      const x = p % W;
      const y = (p - x) / W;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (n + 8 > found.length) {
        const more = new Int32Array(2 * found.length);
        more.set(found);
        found = more;
      }
      // The 8 neighbours inside the plane (eachNeighbour, unrolled: this runs on every pixel of a 12 MP mask).
      const xa = x > 0 ? x - 1 : x, xb = x < W - 1 ? x + 1 : x;
      for (let yy = y > 0 ? y - 1 : y; yy <= (y < H - 1 ? y + 1 : y); yy++) {
        for (let q = yy * W + xa, end = yy * W + xb; q <= end; q++) {
          if (!mask[q] || seen[q >> 3]! & (1 << (q & 7))) continue;
          seen[q >> 3]! |= 1 << (q & 7);
          found[n++] = q;
        }
      }
    }
    pixels.push(found.slice(0, n));
    boxes.push({ x0: Math.max(0, x0 - margin), y0: Math.max(0, y0 - margin), x1: Math.min(W - 1, x1 + margin), y1: Math.min(H - 1, y1 + margin) });
  }
  return { pixels, boxes };
}

/**
 * A scan for set pixels: `next(from, end)` is the first set pixel of `mask` in [from, end) (`end` if none). Masks
 * are mostly empty: four bytes are read at a time where they are aligned, which makes the scan of a 12 MP mask
 * several times faster.
 */
export function setScanner(mask: Uint8Array): (from: number, end?: number) => number {
  const n = mask.length;
  // Bytes before the first aligned word, and the whole words after them.
  const lead = Math.min(n, (4 - (mask.byteOffset & 3)) & 3);
  const words = (mask.byteOffset + lead) & 3 ? new Uint32Array(0) : new Uint32Array(mask.buffer, mask.byteOffset + lead, (n - lead) >> 2);
  return (from, end = n) => {
    let i = from;
    while (i < end && (i < lead || (i - lead) & 3)) {
      if (mask[i]) return i;
      i++;
    }
    if (i < end) {
      let k = (i - lead) >> 2;
      const last = Math.min(words.length, (end - lead) >> 2);
      while (k < last && words[k] === 0) k++;
      i = Math.max(i, lead + 4 * k);
    }
    for (; i < end; i++) if (mask[i]) return i;
    return end;
  };
}

/** Adds the 8 neighbours of every set pixel. */
export function grow(mask: Uint8Array, w: number, h: number): void {
  const prev = mask.slice();
  for (let i = 0; i < prev.length; i++) {
    if (!prev[i]) continue;
    const x = i % w;
    eachNeighbour(x, (i - x) / w, w, h, (j) => {
      mask[j] = 1;
    });
  }
}
