// Minimum s-t cut of an image grid (Boykov & Kolmogorov 2004, "An experimental comparison of min-cut/max-flow
// algorithms for energy minimization in vision"): two search trees grow from the terminals, meet on an
// augmenting path, and are repaired after each augmentation instead of being rebuilt. On the grids GrabCut
// builds it is the fastest exact algorithm known.
//
// The grid is stored with a one-node frame of dead nodes (no capacity anywhere), so every real node has all 8
// neighbours in memory and no step needs a bounds check. Edge e = node * 8 + k goes to node + offsets[k];
// direction 7 - k is its reverse.

const FREE = 0;
const SOURCE = 1;
const SINK = 2;
const TERMINAL = -1;
const ORPHAN = -2;
const NONE = -3;
const FAR = 1 << 30;

/** The 8 neighbour steps (dx, dy); index k and 7 - k are opposite directions. */
export const NEIGHBOURS_8: readonly (readonly [number, number])[] = [
  [-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1],
];

/**
 * A grid graph ready for one cut. `setTerminal(i, source, sink)` sets pixel i's links to the terminals (the
 * cost of cutting it away from each side); `setLink(i, k, capacity)` the capacity between i and its k-th
 * neighbour, both directions. `cut()` returns the flow; then `isSource(i)` tells i's side.
 */
export class GridCut {
  readonly width: number;
  readonly height: number;
  private readonly stride: number;
  private readonly offsets: Int32Array;
  private readonly residual: Float64Array;
  private readonly terminal: Float64Array;
  private readonly tree: Uint8Array;
  private readonly parent: Int8Array;
  private readonly stamp: Int32Array;
  private readonly distance: Int32Array;
  private readonly queued: Uint8Array;
  private time = 0;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.stride = width + 2;
    const n = this.stride * (height + 2);
    this.offsets = Int32Array.from(NEIGHBOURS_8, ([x, y]) => y * this.stride + x);
    this.residual = new Float64Array(n * 8);
    this.terminal = new Float64Array(n);
    this.tree = new Uint8Array(n);
    this.parent = new Int8Array(n);
    this.stamp = new Int32Array(n);
    this.distance = new Int32Array(n);
    this.queued = new Uint8Array(n);
  }

  /** The framed index of pixel i. */
  private node(i: number): number {
    const x = i % this.width;
    return ((i - x) / this.width + 1) * this.stride + x + 1;
  }

  /** Cutting pixel i from the source costs `source`, from the sink `sink`; only their difference matters. */
  setTerminal(i: number, source: number, sink: number): void {
    this.terminal[this.node(i)] = source - sink;
  }

  /** Capacity of the link between pixel i and its k-th neighbour (ignored off the grid), both directions. */
  setLink(i: number, k: number, capacity: number): void {
    const x = (i % this.width) + NEIGHBOURS_8[k]![0];
    const y = Math.floor(i / this.width) + NEIGHBOURS_8[k]![1];
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const a = this.node(i);
    this.residual[a * 8 + k] = capacity;
    this.residual[(a + this.offsets[k]!) * 8 + 7 - k] = capacity;
  }

  /** After `cut()`: whether pixel i stays on the source side. */
  isSource(i: number): boolean {
    return this.tree[this.node(i)] === SOURCE;
  }

  /** Runs the max-flow and returns its value. */
  cut(): number {
    const { terminal, tree, parent, queued } = this;
    const active: number[] = [];
    parent.fill(NONE);
    tree.fill(FREE);
    queued.fill(0);
    for (let a = 0; a < terminal.length; a++) {
      const t = terminal[a]!;
      if (t === 0) continue;
      tree[a] = t > 0 ? SOURCE : SINK;
      parent[a] = TERMINAL;
      this.distance[a] = 1;
      this.stamp[a] = 0;
      queued[a] = 1;
      active.push(a);
    }
    let flow = 0;
    let head = 0;
    const orphans: number[] = [];
    while (head < active.length) {
      const a = active[head]!;
      const meeting = tree[a] === FREE ? -1 : this.grow(a, active);
      if (meeting < 0) {
        queued[a] = 0;
        head++;
        continue;
      }
      this.time++;
      flow += this.augment(a, meeting, orphans);
      this.adopt(orphans, active);
      if (head > 4096 && head * 2 > active.length) {
        active.splice(0, head);
        head = 0;
      }
    }
    return flow;
  }

  /** Grows a's tree into free neighbours; returns the edge (a*8+k) that meets the other tree, or -1. */
  private grow(a: number, active: number[]): number {
    const { residual, tree, parent, stamp, distance, offsets } = this;
    const side = tree[a]!;
    for (let k = 0; k < 8; k++) {
      const b = a + offsets[k]!;
      const capacity = side === SOURCE ? residual[a * 8 + k]! : residual[b * 8 + 7 - k]!;
      if (capacity <= 0) continue;
      const other = tree[b]!;
      if (other === FREE) {
        tree[b] = side;
        parent[b] = 7 - k;
        stamp[b] = stamp[a]!;
        distance[b] = distance[a]! + 1;
        if (!this.queued[b]) {
          this.queued[b] = 1;
          active.push(b);
        }
      } else if (other !== side) {
        return a * 8 + k;
      } else if (stamp[b]! <= stamp[a]! && distance[b]! > distance[a]!) {
        // A shorter route to the terminal: re-parent b onto a.
        parent[b] = 7 - k;
        stamp[b] = stamp[a]!;
        distance[b] = distance[a]! + 1;
      }
    }
    return -1;
  }

  /** Pushes the bottleneck along source → … → s → t → … → sink; saturated tree edges make orphans. */
  private augment(a: number, edge: number, orphans: number[]): number {
    const { residual, terminal, parent, offsets } = this;
    const k = edge & 7;
    const b = a + offsets[k]!;
    const fromSource = this.tree[a] === SOURCE;
    const s = fromSource ? a : b;
    const t = fromSource ? b : a;
    const middle = fromSource ? edge : b * 8 + 7 - k;
    let bottleneck = residual[middle]!;
    let v = s;
    while (parent[v] !== TERMINAL) {
      const up = v + offsets[parent[v]!]!;
      bottleneck = Math.min(bottleneck, residual[up * 8 + 7 - parent[v]!]!);
      v = up;
    }
    bottleneck = Math.min(bottleneck, terminal[v]!);
    v = t;
    while (parent[v] !== TERMINAL) {
      bottleneck = Math.min(bottleneck, residual[v * 8 + parent[v]!]!);
      v += offsets[parent[v]!]!;
    }
    bottleneck = Math.min(bottleneck, -terminal[v]!);
    this.push(middle, bottleneck);
    v = s;
    while (parent[v] !== TERMINAL) {
      const up = v + offsets[parent[v]!]!;
      const e = up * 8 + 7 - parent[v]!;
      this.push(e, bottleneck);
      if (residual[e]! <= 0) {
        parent[v] = ORPHAN;
        orphans.push(v);
      }
      v = up;
    }
    terminal[v] -= bottleneck;
    if (terminal[v]! <= 0) {
      parent[v] = ORPHAN;
      orphans.push(v);
    }
    v = t;
    while (parent[v] !== TERMINAL) {
      const up = v + offsets[parent[v]!]!;
      const e = v * 8 + parent[v]!;
      this.push(e, bottleneck);
      if (residual[e]! <= 0) {
        parent[v] = ORPHAN;
        orphans.push(v);
      }
      v = up;
    }
    terminal[v] += bottleneck;
    if (terminal[v]! >= 0) {
      parent[v] = ORPHAN;
      orphans.push(v);
    }
    return bottleneck;
  }

  private push(edge: number, amount: number): void {
    const k = edge & 7;
    const b = (edge >> 3) + this.offsets[k]!;
    this.residual[edge] -= amount;
    this.residual[b * 8 + 7 - k] += amount;
  }

  /** Distance from b to its terminal through valid parents, or FAR if the chain meets an orphan. */
  private rootDistance(b: number): number {
    const { parent, stamp, distance, offsets } = this;
    let d = 0;
    for (let v = b; ; v += offsets[parent[v]!]!) {
      if (stamp[v] === this.time) return d + distance[v]!;
      d++;
      if (parent[v] === TERMINAL) {
        stamp[v] = this.time;
        distance[v] = 1;
        return d;
      }
      if (parent[v]! < 0) return FAR;
    }
  }

  /** Marks the chain from b with up-to-date distances, so later walks stop early. */
  private stampChain(b: number, d: number): void {
    const { parent, stamp, distance, offsets } = this;
    for (let v = b; stamp[v] !== this.time; v += offsets[parent[v]!]!) {
      stamp[v] = this.time;
      distance[v] = d--;
    }
  }

  /**
   * Finds each orphan a new parent in its own tree, or frees it (and orphans its children). Orphans from the
   * augmentation go first, nearest the terminal first; those it creates queue behind them.
   */
  private adopt(orphans: number[], active: number[]): void {
    const { residual, tree, parent, offsets } = this;
    const later: number[] = [];
    let next = 0;
    for (;;) {
      const a = orphans.length ? orphans.pop()! : next < later.length ? later[next++]! : -1;
      if (a < 0) break;
      const side = tree[a]!;
      let best = -1;
      let bestDistance = FAR;
      for (let k = 0; k < 8; k++) {
        const b = a + offsets[k]!;
        if (tree[b] !== side) continue;
        const capacity = side === SOURCE ? residual[b * 8 + 7 - k]! : residual[a * 8 + k]!;
        if (capacity <= 0) continue;
        const d = this.rootDistance(b);
        if (d >= FAR) continue;
        this.stampChain(b, d);
        if (d < bestDistance) {
          best = k;
          bestDistance = d;
        }
      }
      if (best >= 0) {
        parent[a] = best;
        this.stamp[a] = this.time;
        this.distance[a] = bestDistance + 1;
        continue;
      }
      // No way back to the terminal: a becomes free; its children are orphans, its neighbours active again.
      for (let k = 0; k < 8; k++) {
        const b = a + offsets[k]!;
        if (tree[b] !== side) continue;
        const capacity = side === SOURCE ? residual[b * 8 + 7 - k]! : residual[a * 8 + k]!;
        if (capacity > 0 && !this.queued[b]) {
          this.queued[b] = 1;
          active.push(b);
        }
        if (parent[b]! >= 0 && b + offsets[parent[b]!]! === a) {
          parent[b] = ORPHAN;
          later.push(b);
        }
      }
      tree[a] = FREE;
      parent[a] = NONE;
    }
  }
}
