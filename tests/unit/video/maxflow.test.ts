import { describe, expect, it } from 'vitest';
import { GridCut, NEIGHBOURS_8 } from '../../../engines/video/layers/maxflow';
import { mulberry32 } from '../../../src/lib/random';

type Problem = { width: number; height: number; source: number[]; sink: number[]; links: Map<string, number> };

const neighbour = (p: Problem, i: number, k: number) => {
  const x = (i % p.width) + NEIGHBOURS_8[k]![0];
  const y = Math.floor(i / p.width) + NEIGHBOURS_8[k]![1];
  return x < 0 || y < 0 || x >= p.width || y >= p.height ? -1 : y * p.width + x;
};

/** Cost of a labelling (bit i set = source side): terminal costs of the side left, plus cut links. */
function energy(p: Problem, sourceSide: (i: number) => boolean): number {
  let cost = 0;
  for (let i = 0; i < p.width * p.height; i++) cost += sourceSide(i) ? p.sink[i]! : p.source[i]!;
  for (const [key, capacity] of p.links) {
    const [i, j] = key.split(',').map(Number) as [number, number];
    if (sourceSide(i) !== sourceSide(j)) cost += capacity;
  }
  return cost;
}

function randomProblem(seed: number): Problem {
  const random = mulberry32(seed);
  const width = 2 + Math.floor(random() * 3);
  const height = 2 + Math.floor(random() * 2);
  const n = width * height;
  const p: Problem = {
    width,
    height,
    source: Array.from({ length: n }, () => random() * 10),
    sink: Array.from({ length: n }, () => random() * 10),
    links: new Map(),
  };
  for (let i = 0; i < n; i++) {
    for (let k = 4; k < 8; k++) {
      const j = neighbour(p, i, k);
      if (j >= 0) p.links.set(`${i},${j}`, random() < 0.3 ? 0 : random() * 6);
    }
  }
  return p;
}

describe('GridCut (Boykov–Kolmogorov min-cut)', () => {
  it('finds the minimum cut of small random grids (checked against every labelling)', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const p = randomProblem(seed);
      const graph = new GridCut(p.width, p.height);
      const n = p.width * p.height;
      for (let i = 0; i < n; i++) graph.setTerminal(i, p.source[i]!, p.sink[i]!);
      for (const [key, capacity] of p.links) {
        const [i, j] = key.split(',').map(Number) as [number, number];
        const k = [4, 5, 6, 7].find((d) => neighbour(p, i, d) === j)!;
        graph.setLink(i, k, capacity);
      }
      const flow = graph.cut();
      let best = Infinity;
      for (let mask = 0; mask < 1 << n; mask++) best = Math.min(best, energy(p, (i) => ((mask >> i) & 1) === 1));
      // The flow plus what each pixel pays whatever its side equals the minimum energy, and the labelling
      // the cut returns reaches it.
      const constant = p.source.reduce((sum, s, i) => sum + Math.min(s, p.sink[i]!), 0);
      expect(flow + constant, `seed ${seed}`).toBeCloseTo(best, 6);
      expect(energy(p, (i) => graph.isSource(i)), `seed ${seed}`).toBeCloseTo(best, 6);
    }
  });

  it('separates two regions along the weakest links', () => {
    // Left columns pulled to the source, right columns to the sink, strong links everywhere except those
    // crossing between columns 6 and 7.
    const [width, height] = [12, 8];
    const graph = new GridCut(width, height);
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      graph.setTerminal(i, x < 3 ? 5 : 0, x > 8 ? 5 : 0);
      for (let k = 4; k < 8; k++) {
        const other = x + NEIGHBOURS_8[k]![0];
        graph.setLink(i, k, Math.min(x, other) === 6 && Math.max(x, other) === 7 ? 0.1 : 10);
      }
    }
    graph.cut();
    for (let i = 0; i < width * height; i++) expect(graph.isSource(i)).toBe(i % width <= 6);
  });
});
