/** Hero particle layout (spec 000 §9: 40 particles, 1-5 px, animation delay up to 5 s). */
export const PARTICLE_COUNT = 40;

export interface Particle {
  left: number; // %
  top: number; // %
  size: number; // px, 1-5
  delay: number; // s, 0-5
  duration: number; // s
}

/** `random` is injectable so the server render is deterministic and tests can pin it. */
export function makeParticles(count = PARTICLE_COUNT, random: () => number = Math.random): Particle[] {
  return Array.from({ length: count }, () => ({
    left: round(random() * 100),
    top: round(random() * 100),
    size: round(1 + random() * 4),
    delay: round(random() * 5),
    duration: round(6 + random() * 6),
  }));
}

/** A small seeded generator (mulberry32) for the build-time layout. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function particleStyle(p: Particle): string {
  return `left:${p.left}%;top:${p.top}%;width:${p.size}px;height:${p.size}px;animation-delay:${p.delay}s;animation-duration:${p.duration}s`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
