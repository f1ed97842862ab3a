/** Hero particle layout (40 particles, 1-5 px, animation delay up to 5 s). */
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

/** The seeded generator of the build-time layout (re-exported for its callers). */
export { mulberry32 as seeded } from './random';

export function particleStyle(p: Particle): string {
  return `left:${p.left}%;top:${p.top}%;width:${p.size}px;height:${p.size}px;animation-delay:${p.delay}s;animation-duration:${p.duration}s`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
