import { shape } from './shape';

// A long scratch crossing structure breaks into short pieces: where it crosses a wire, an edge or texture its
// pixels stop standing out, and each piece alone looks like a short stroke (a hair, a twig, grain) to the
// object network. Pieces of one sign lying on one straight line, end to end with short gaps, are joined into
// one component before they are described, so the network judges the whole line.

export const CHAIN = {
  /** Pieces at least this long (px) and this straight take part. */
  length: 5,
  straightness: 0.9,
  /** Their axes within this angle of each other (cosine)… */
  cos: 0.985,
  /** …each centre within this distance (px) of the other's line… */
  across: 2,
  /** …and at most this gap (px) between their ends. */
  gap: 10,
};

/** Components (pixel lists) with the collinear pieces among them joined; `r` gives each piece's sign. */
export function joinCollinear(parts: Int32Array[], r: Float32Array, w: number): Int32Array[] {
  const pieces: { k: number; cx: number; cy: number; ax: number; ay: number; length: number; sign: number }[] = [];
  parts.forEach((members, k) => {
    if (members.length < 2) return;
    const s = shape(members, w);
    if (s.length < CHAIN.length || s.straightness < CHAIN.straightness) return;
    let signSum = 0;
    for (const i of members) signSum += r[i]! >= 0 ? 1 : -1;
    pieces.push({ k, cx: s.cx, cy: s.cy, ax: s.ax, ay: s.ay, length: s.length, sign: signSum >= 0 ? 1 : -1 });
  });
  const parent = parts.map((_, k) => k);
  const root = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]!]!;
    return k;
  };
  for (let a = 0; a < pieces.length; a++) {
    const A = pieces[a]!;
    for (let b = a + 1; b < pieces.length; b++) {
      const B = pieces[b]!;
      if (A.sign !== B.sign) continue;
      if (Math.abs(A.ax * B.ax + A.ay * B.ay) < CHAIN.cos) continue;
      const dx = B.cx - A.cx;
      const dy = B.cy - A.cy;
      const along = Math.abs(A.ax * dx + A.ay * dy);
      if (along - (A.length + B.length) / 2 > CHAIN.gap) continue;
      // Both pieces must lie on the other's line: parallel neighbours (the bars of a grid) are not one line.
      if (Math.abs(-A.ay * dx + A.ax * dy) > CHAIN.across) continue;
      if (Math.abs(-B.ay * dx + B.ax * dy) > CHAIN.across) continue;
      parent[root(B.k)] = root(A.k);
    }
  }
  const groups = new Map<number, Int32Array[]>();
  parts.forEach((members, k) => {
    const g = root(k);
    const list = groups.get(g);
    if (list) list.push(members);
    else groups.set(g, [members]);
  });
  return [...groups.values()].map((list) => (list.length === 1 ? list[0]! : Int32Array.from(list.flatMap((m) => [...m])).sort()));
}
