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

/** The 8-connected regions of a mask: a label per pixel (1…, 0 outside) and each region's box grown by `margin`. */
export function maskComponents(mask: Uint8Array, W: number, H: number, margin: number): { label: Int32Array; boxes: Box[] } {
  const label = new Int32Array(mask.length);
  const boxes: Box[] = [];
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || label[s]) continue;
    const id = boxes.length + 1;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    label[s] = id;
    stack.push(s);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % W;
      const y = (p - x) / W;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      eachNeighbour(x, y, W, H, (q) => {
        if (!mask[q] || label[q]) return;
        label[q] = id;
        stack.push(q);
      });
    }
    boxes.push({ x0: Math.max(0, x0 - margin), y0: Math.max(0, y0 - margin), x1: Math.min(W - 1, x1 + margin), y1: Math.min(H - 1, y1 + margin) });
  }
  return { label, boxes };
}

/** The pixels of each of `count` labelled regions, in raster order. */
export function regionPixels(label: Int32Array, count: number): Int32Array[] {
  const sizes = new Int32Array(count);
  for (let i = 0; i < label.length; i++) if (label[i]) sizes[label[i]! - 1]!++;
  const out = Array.from(sizes, (n) => new Int32Array(n));
  const fill = new Int32Array(count);
  for (let i = 0; i < label.length; i++) {
    const id = label[i]!;
    if (!id) continue;
    out[id - 1]![fill[id - 1]!] = i;
    fill[id - 1]!++;
  }
  return out;
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
