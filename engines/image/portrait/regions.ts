import type { Face, MeshPoint } from '../../vision';

// The parts of a face the colour stage treats apart, as soft masks on a plane of the caller's size: the face's
// outline from the 468-point mesh, and inside it the lips, the eye openings and the brows (which are not skin).
// Index lists are MediaPipe FaceMesh's (the outline and lids as the vision module names them; lips and brows
// from MediaPipe's face_mesh_connections).

/** The face's outline, clockwise from the top of the forehead. */
const FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];
/** The lips' outer and inner contours (the mouth's opening is between them: not lip). */
const LIPS_OUTER = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185];
const LIPS_INNER = [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 415, 310, 311, 312, 13, 82, 81, 80, 191];
/** Each eye's opening: the lower lid corner to corner, then the upper lid back. */
const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];
const RIGHT_BROW = [70, 63, 105, 66, 107, 55, 65, 52, 53, 46];
const LEFT_BROW = [300, 293, 334, 296, 336, 285, 295, 282, 283, 276];

export type FaceRegions = {
  /** The face's outline filled (1 inside). */
  face: Uint8Array;
  /** Skin: the outline without lips, mouth, eyes and brows. */
  skin: Uint8Array;
  lips: Uint8Array;
  eyes: Uint8Array;
  width: number;
  height: number;
};

type Pt = { x: number; y: number };

/** Fills a closed polygon (even–odd rule, pixel centres) into `into` with 1. */
export function fillPolygon(points: readonly Pt[], into: Uint8Array, w: number, h: number): void {
  if (points.length < 3) return;
  const ys = points.map((p) => p.y);
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(h - 1, Math.ceil(Math.max(...ys)));
  const xs: number[] = [];
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5;
    xs.length = 0;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const a = points[i]!, b = points[j]!;
      if ((a.y <= cy) === (b.y <= cy)) continue;
      xs.push(a.x + ((cy - a.y) / (b.y - a.y)) * (b.x - a.x));
    }
    xs.sort((p, q) => p - q);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const from = Math.max(0, Math.ceil(xs[k]! - 0.5)), to = Math.min(w - 1, Math.floor(xs[k + 1]! - 0.5));
      for (let x = from; x <= to; x++) into[y * w + x] = 1;
    }
  }
}

/** Mesh points by index, scaled from the analysed image's pixels to the plane's. */
const ring = (mesh: readonly MeshPoint[], idx: readonly number[], s: number): Pt[] => idx.map((i) => ({ x: mesh[i]!.x * s, y: mesh[i]!.y * s }));

/** The regions of `faces` (found on an image `scale` times smaller or larger than the plane: plane px = image px × scale) on a w × h plane. */
export function faceRegions(faces: readonly Face[], w: number, h: number, scale: number): FaceRegions {
  const face = new Uint8Array(w * h), lips = new Uint8Array(w * h), mouth = new Uint8Array(w * h);
  const eyes = new Uint8Array(w * h), brows = new Uint8Array(w * h);
  for (const f of faces) {
    if (f.mesh.length < 468) continue;
    fillPolygon(ring(f.mesh, FACE_OVAL, scale), face, w, h);
    fillPolygon(ring(f.mesh, LIPS_OUTER, scale), lips, w, h);
    fillPolygon(ring(f.mesh, LIPS_INNER, scale), mouth, w, h);
    fillPolygon(ring(f.mesh, RIGHT_EYE, scale), eyes, w, h);
    fillPolygon(ring(f.mesh, LEFT_EYE, scale), eyes, w, h);
    fillPolygon(ring(f.mesh, RIGHT_BROW, scale), brows, w, h);
    fillPolygon(ring(f.mesh, LEFT_BROW, scale), brows, w, h);
  }
  const skin = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    if (mouth[i]) lips[i] = 0;
    skin[i] = face[i] && !lips[i] && !mouth[i] && !eyes[i] && !brows[i] ? 1 : 0;
  }
  return { face, skin, lips, eyes, width: w, height: h };
}
