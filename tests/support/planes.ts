// Generated L* planes for the engine's tests: a seeded grain, so every run sees the same photo.

/** `base(x, y)` plus a seeded, roughly Gaussian grain of spread `sigma`. */
export function grainy(w: number, h: number, base: (x: number, y: number) => number, sigma = 1.2, seed = 7): Float32Array {
  let a = seed;
  const rnd = () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
  const L = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = base(x, y) + sigma * (rnd() + rnd() + rnd() - 1.5) * 2;
  return L;
}
