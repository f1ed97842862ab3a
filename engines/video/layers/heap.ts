/** A binary min-heap of integer items keyed by numbers (Dijkstra's frontier). Duplicates are allowed. */
export class MinHeap {
  private items: number[] = [];
  private keys: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: number, key: number): void {
    const items = this.items;
    const keys = this.keys;
    let c = items.length;
    items.push(item);
    keys.push(key);
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (keys[p]! <= key) break;
      items[c] = items[p]!;
      keys[c] = keys[p]!;
      c = p;
    }
    items[c] = item;
    keys[c] = key;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  pop(): number {
    const items = this.items;
    const keys = this.keys;
    const top = items[0]!;
    const lastItem = items.pop()!;
    const lastKey = keys.pop()!;
    if (items.length === 0) return top;
    let c = 0;
    for (;;) {
      let m = 2 * c + 1;
      if (m >= items.length) break;
      if (m + 1 < items.length && keys[m + 1]! < keys[m]!) m++;
      if (keys[m]! >= lastKey) break;
      items[c] = items[m]!;
      keys[c] = keys[m]!;
      c = m;
    }
    items[c] = lastItem;
    keys[c] = lastKey;
    return top;
  }
}
