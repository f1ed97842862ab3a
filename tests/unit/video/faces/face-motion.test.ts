// Faces that move, on a generated face: a textured picture with dark eye openings under a real FaceMesh mesh
// (mesh.json, taken from the astronaut portrait), animated over a still camera so every change is the face's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eyeOf, boundsOf, poseOf, MESH } from '../../../../engines/vision';
import type { Face } from '../../../../engines/vision';
import { chooseMotion, FaceAnimator, planFaces } from '../../../../engines/video/faces';
import { buildRig, keepsShape, posed } from '../../../../engines/video/faces/rig';
import { closureAt, poseAt } from '../../../../engines/video/faces/timing';
import { warpPlane } from '../../../../engines/video/faces/warp';
import type { CameraPath } from '../../../../engines/video/motion';

const W = 400, H = 400, FRAMES = 150, FPS = 30;
const fixture = JSON.parse(readFileSync(new URL('./mesh.json', import.meta.url), 'utf8')) as { points: number[][] };

function faceAt(cx: number, cy: number, width: number): Face {
  const mesh = fixture.points.map(([x, y, z]) => ({ x: cx + x! * width, y: cy + y! * width, z: z! * width }));
  return {
    box: boundsOf(mesh),
    score: 0.9,
    mesh,
    eyes: { left: eyeOf(mesh, MESH.leftEyeUpper, MESH.leftEyeLower), right: eyeOf(mesh, MESH.rightEyeUpper, MESH.rightEyeLower) },
    pose: poseOf(mesh),
    frontal: true,
  };
}

/** Blurred noise (so patches can be matched), 60..220, with the eye openings filled dark (20). */
function picture(face: Face): Uint8Array {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const noise = Float32Array.from({ length: W * H }, rnd);
  const y = new Uint8Array(W * H);
  const r = 2;
  for (let j = 0; j < H; j++)
    for (let i = 0; i < W; i++) {
      let s = 0, n = 0;
      for (let dj = -r; dj <= r; dj++) for (let di = -r; di <= r; di++) {
        const x = Math.min(W - 1, Math.max(0, i + di)), yy = Math.min(H - 1, Math.max(0, j + dj));
        s += noise[yy * W + x]!;
        n++;
      }
      y[j * W + i] = 60 + 160 * Math.min(1, Math.max(0, (s / n - 0.5) * 3 + 0.5));
    }
  for (const eye of [face.eyes.left, face.eyes.right]) {
    const poly = [...eye.upper, ...[...eye.lower].reverse()].map((k) => face.mesh[k]!);
    for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) if (inside(poly, i, j)) y[j * W + i] = 20;
  }
  return y;
}

function inside(poly: { x: number; y: number }[], x: number, y: number): boolean {
  let c = false;
  for (let a = 0, b = poly.length - 1; a < poly.length; b = a++) {
    const pa = poly[a]!, pb = poly[b]!;
    if (pa.y > y !== pb.y > y && x < ((pb.x - pa.x) * (y - pa.y)) / (pb.y - pa.y) + pa.x) c = !c;
  }
  return c;
}

const still: CameraPath = { from: { x: 0, y: 0, w: 1, h: 1 }, to: { x: 0, y: 0, w: 1, h: 1 }, easing: 'linear', frames: FRAMES };
const face = faceAt(200, 200, 200);
const luma = picture(face);

function frames(): Uint8Array[] {
  const { animated, report } = planFaces([face], W, H, FRAMES, FPS);
  expect(report.animated).toBe(1);
  const animator = new FaceAnimator(animated, still, W, H, FPS);
  const out: Uint8Array[] = [];
  for (let n = 0; n < FRAMES; n++) {
    const frame = new Uint8Array(W * H * 1.5).fill(128);
    frame.set(luma);
    animator.apply(n, frame);
    out.push(frame.subarray(0, W * H));
  }
  return out;
}
const clip = frames();

describe('faces that move', () => {
  it('covers every pixel of the face region in every frame (no tears, no holes)', () => {
    const { animated } = planFaces([face], W, H, FRAMES, FPS);
    const rig = animated[0]!.rig;
    const pts = new Float64Array(rig.rest.length);
    for (let n = 0; n < FRAMES; n += 3) {
      const target = new Uint8Array(W * H); // 0 is a value the picture never has
      posed(rig, poseAt(n, FRAMES, FPS), animated[0]!.scale, pts);
      // Every triangle drawn, moved or not, so the whole region must come out filled.
      warpPlane(target, W, H, luma, rig.triangles, pts, rig.rest, true);
      const { x0, y0, x1, y1 } = rig.bounds;
      let holes = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (target[y * W + x] === 0) holes++;
      expect(holes, `frame ${n}`).toBe(0);
    }
  });

  it('starts and ends on the photo as it was, and changes nothing outside the face region', () => {
    expect(clip[0]).toEqual(luma);
    expect(clip[FRAMES - 1]).toEqual(luma);
    const { animated } = planFaces([face], W, H, FRAMES, FPS);
    const { x0, y0, x1, y1 } = animated[0]!.rig.bounds;
    for (const n of [40, 66, 75, 110]) {
      let outside = 0;
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if ((x < x0 || x >= x1 || y < y0 || y >= y1) && clip[n]![y * W + x] !== luma[y * W + x]) outside++;
      expect(outside).toBe(0);
    }
  });

  it('moves no pixel further from one frame to the next than the mesh points move', () => {
    const { animated } = planFaces([face], W, H, FRAMES, FPS);
    const rig = animated[0]!.rig;
    let g = 0; // the picture's steepest step between neighbours
    for (let y = 0; y < H - 1; y++) for (let x = 0; x < W - 1; x++) {
      const v = luma[y * W + x]!;
      g = Math.max(g, Math.abs(v - luma[y * W + x + 1]!), Math.abs(v - luma[(y + 1) * W + x]!));
    }
    // The eye openings (with their corners) are exempt: as the lids meet, the opening's triangles shrink to a
    // line, and a pixel there shows the lid one frame and the eye the next, as in a real blink.
    const openings = [face.eyes.left, face.eyes.right].map((eye) => {
      const b = boundsOf([...eye.upper, ...eye.lower].map((k) => face.mesh[k]!));
      const m = 0.15 * eye.width;
      return { x0: b.x - m, y0: b.y - m, x1: b.x + b.width + m, y1: b.y + b.height + m };
    });
    const exempt = (i: number) => openings.some((o) => i % W >= o.x0 && i % W <= o.x1 && Math.floor(i / W) >= o.y0 && Math.floor(i / W) <= o.y1);
    const a = new Float64Array(rig.rest.length), b = new Float64Array(rig.rest.length);
    for (let n = 1; n < FRAMES; n++) {
      posed(rig, poseAt(n - 1, FRAMES, FPS), animated[0]!.scale, a);
      posed(rig, poseAt(n, FRAMES, FPS), animated[0]!.scale, b);
      let step = 0;
      for (let i = 0; i < a.length; i += 2) step = Math.max(step, Math.hypot(a[i]! - b[i]!, a[i + 1]! - b[i + 1]!));
      let jump = 0, at = 0;
      for (let i = 0; i < W * H; i++) {
        const d = exempt(i) ? 0 : Math.abs(clip[n]![i]! - clip[n - 1]![i]!);
        if (d > jump) [jump, at] = [d, i];
      }
      // Bilinear reads: a pixel can change by at most the steepest step times how far its source moved.
      expect(jump, `frame ${n} at (${at % W}, ${Math.floor(at / W)})`).toBeLessThanOrEqual(Math.ceil(g * (step + 1e-6)) + 2);
      expect(step, `frame ${n}`).toBeLessThan(8);
    }
  });

  it('turns the face within the head: the nose moves off the similarity of the head around it', () => {
    const peak = 75;
    const nose = face.mesh[MESH.noseTip]!;
    const track = (x: number, y: number) => match(clip[0]!, clip[peak]!, Math.round(x), Math.round(y));
    // Around the face, outside the warped region's inner ring: the head (hair, ears) and the background.
    const around = [[60, 60], [340, 60], [60, 340], [340, 340], [200, 40], [40, 200], [360, 200], [200, 370]].map(([x, y]) => ({ from: { x: x!, y: y! }, to: track(x!, y!) }));
    const sim = similarity(around);
    const moved = track(nose.x, nose.y);
    const expected = sim(nose);
    const residual = Math.hypot(moved.x - expected.x, moved.y - expected.y);
    expect(residual).toBeGreaterThan(4);
    // The turn goes toward the image's right (yaw > 0), the nod down.
    expect(moved.x - nose.x).toBeGreaterThan(3);
    expect(moved.y - nose.y).toBeGreaterThan(0);
  });

  it('closes the eyes once, for about a third of a second, and opens them again', () => {
    const dark = (frame: Uint8Array) => {
      let n = 0;
      for (const eye of [face.eyes.left, face.eyes.right]) {
        const b = { x0: Math.floor(eye.centre.x - eye.width), x1: Math.ceil(eye.centre.x + eye.width), y0: Math.floor(eye.centre.y - eye.width), y1: Math.ceil(eye.centre.y + eye.width) };
        for (let y = b.y0; y < b.y1; y++) for (let x = b.x0; x < b.x1; x++) if (frame[y * W + x]! < 40) n++;
      }
      return n;
    };
    const open = dark(clip[0]!);
    expect(open).toBeGreaterThan(100);
    const shut = clip.map((f) => dark(f) < 0.3 * open);
    const runs = shut.filter((s, n) => s && !shut[n - 1]).length;
    expect(runs).toBe(1);
    const closedFrames = shut.filter(Boolean).length;
    expect(closedFrames).toBeGreaterThanOrEqual(2);
    expect(closedFrames).toBeLessThanOrEqual(10);
    expect(dark(clip[FRAMES - 1]!)).toBe(open);
    // The timing the frames follow: one blink, shut around 2.2 s.
    expect(closureAt(2.0)).toBe(0);
    expect(closureAt(2.2)).toBe(1);
    expect(closureAt(2.6)).toBe(0);
  });
});

describe('which faces move', () => {
  it('skips a face too small, in profile or partly hidden, and says why', () => {
    const small = faceAt(200, 200, 30);
    const profile = { ...faceAt(200, 200, 200), pose: { yaw: 40, pitch: 0, roll: 0 }, frontal: false };
    const hidden = { ...faceAt(200, 200, 200), score: 0.3 };
    const reasons = [small, profile, hidden].map((f) => planFaces([f], W, H, FRAMES, FPS).report.decisions[0]);
    expect(reasons.map((d) => d!.animated)).toEqual([false, false, false]);
    expect(reasons.map((d) => (d!.animated ? '' : d!.reason.split(' ')[0]))).toEqual(['too', 'in', 'partly']);
  });
});

/** Where the 11 × 11 patch around (x, y) in a went in b: the best sum of squared differences within ±20 px, to a pixel. */
function match(a: Uint8Array, b: Uint8Array, x: number, y: number): { x: number; y: number } {
  let best = Infinity, bx = x, by = y;
  for (let dy = -20; dy <= 20; dy++)
    for (let dx = -20; dx <= 20; dx++) {
      let s = 0;
      for (let j = -5; j <= 5; j++) for (let i = -5; i <= 5; i++) {
        const d = a[(y + j) * W + x + i]! - b[(y + dy + j) * W + x + dx + i]!;
        s += d * d;
      }
      if (s < best) [best, bx, by] = [s, x + dx, y + dy];
    }
  return { x: bx, y: by };
}

/** Least-squares similarity (scale, rotation, shift) through the pairs. */
function similarity(pairs: { from: { x: number; y: number }; to: { x: number; y: number } }[]) {
  const n = pairs.length;
  const mf = { x: pairs.reduce((s, p) => s + p.from.x, 0) / n, y: pairs.reduce((s, p) => s + p.from.y, 0) / n };
  const mt = { x: pairs.reduce((s, p) => s + p.to.x, 0) / n, y: pairs.reduce((s, p) => s + p.to.y, 0) / n };
  let a = 0, b = 0, d = 0;
  for (const p of pairs) {
    const fx = p.from.x - mf.x, fy = p.from.y - mf.y, tx = p.to.x - mt.x, ty = p.to.y - mt.y;
    a += fx * tx + fy * ty;
    b += fx * ty - fy * tx;
    d += fx * fx + fy * fy;
  }
  const c = a / d, s = b / d;
  return (p: { x: number; y: number }) => ({ x: mt.x + c * (p.x - mf.x) - s * (p.y - mf.y), y: mt.y + s * (p.x - mf.x) + c * (p.y - mf.y) });
}

describe('the shut lid', () => {
  it('closes less only where it would fold the mesh, and the eye still blinks', () => {
    // A point of the mesh in the lid's way (a lid seen at an angle presses its end against the points beside the
    // eye's corner): a cheek point moved into the opening, a third of the way down from the second upper-lid point.
    const bent = faceAt(200, 200, 200);
    const [upper, lower] = [bent.mesh[MESH.rightEyeUpper[1]]!, bent.mesh[MESH.rightEyeLower[2]]!];
    const inTheWay = 50;
    expect([...MESH.rightEyeUpper, ...MESH.rightEyeLower, ...MESH.rightEyeUpperCrease, ...MESH.faceOval]).not.toContain(inTheWay);
    bent.mesh[inTheWay] = { x: upper.x, y: upper.y + (lower.y - upper.y) / 3, z: upper.z };
    const rig = buildRig(bent, W, H);
    const shut = posed(rig, { yaw: 0, pitch: 0, closure: 1 }, 1, new Float64Array(rig.rest.length));
    expect(keepsShape(rig, shut)).toBe(true);
    // That lid point stops above the point in its way; the rest of the lid closes as far as on the plain face.
    expect(shut[MESH.rightEyeUpper[1]! * 2 + 1]!).toBeLessThan(bent.mesh[inTheWay]!.y);
    const plain = buildRig(face, W, H);
    for (const i of [...MESH.leftEyeUpper, MESH.rightEyeUpper[4]!]) expect(rig.lidShare[i]).toBe(plain.lidShare[i]);
    const decision = planFaces([bent], W, H, FRAMES, FPS).report.decisions[0]!;
    expect(decision).toMatchObject({ animated: true, blink: true });
  });
});

describe('the motion a face gets', () => {
  it('keeps the blink at a smaller turn before it leaves the blink out, and leaves the face still only when nothing fits', () => {
    // Everything fits: the whole motion with its blink.
    expect(chooseMotion(() => true, true)).toEqual({ scale: 1, blink: true });
    // The blink fits only at half the turn: half the turn, with the blink.
    expect(chooseMotion((scale, blink) => !blink || scale <= 0.5, true)).toEqual({ scale: 0.5, blink: true });
    // The blink folds at every share (a lid seen at an angle): the whole turn and nod without it.
    expect(chooseMotion((_, blink) => !blink, true)).toEqual({ scale: 1, blink: false });
    // Eyes already closed: never a blink.
    const tried: string[] = [];
    expect(chooseMotion((scale, blink) => (tried.push(`${scale}${blink ? 'b' : ''}`), false), false)).toBeNull();
    expect(tried).toEqual(['1', '0.7', '0.5']);
  });
});
