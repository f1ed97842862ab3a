// Finding the prints on the detection copy of a scan: the bed, the pixels that differ from it, the pieces they
// make, and for each piece either a straight rectangle (a print) or the reason the scan is kept whole.
import { maskRegions } from '../shared';
import { bareSpread, bedModel, busyness, trimGlassEdge, type Area, type BedModel } from './bed';
import type { Box, RotatedRect } from './geometry';
import { examinePiece, type PieceStats } from './piece';
import { erode, fillHoles, open, smoothPlanes, type Rgb } from './raster';
import type { KeptWholeCode } from './reasons';
import { SPLIT } from './thresholds';

export type { PieceStats };

export type Detection = {
  /** The prints found, as rectangles in the detection copy's pixels (empty when the scan is kept whole). */
  prints: RotatedRect[];
  keptWhole?: { code: KeptWholeCode; at?: Box };
  /** What the decision was made on, for tuning and for the bench. */
  stats: { flatShare: number; ringSpread: number; noise?: number; tail?: number; specks?: number; pieces: PieceStats[] };
};

/** The pieces' mask: pixels that differ from the bed (or are busy where it is not), specks cut off, holes filled. */
export type PrintMask = { area: Area; solid: Uint8Array; bed: BedModel };

/** The mask of `img`, or why there is none: no bare bed around the edges (a photo, or a patterned page). */
export function printMask(img: Rgb): PrintMask | { flatShare: number; ringSpread: number; ringDrift: number } {
  const { width: w, height: h } = img;
  const planes = smoothPlanes(img);
  const area = trimGlassEdge(planes, w, h);
  const bed = bedModel(planes, w, h, area);
  if (!('dist' in bed)) return bed;
  const seed = Math.max(SPLIT.seedLevels, SPLIT.seedTail * bed.tail);
  const grow = Math.max(SPLIT.growLevels, SPLIT.growTail * bed.tail);
  const mask = hysteresis(bed.dist, w, h, area, seed, grow);
  // Detail where a print's colour is the bed's (foliage, a grey building on a grey card) is print too; shrunk by
  // the window's reach first, so the busy band a print's edge makes on the bed beside it is not.
  const busy = busyness(planes, w, h);
  const busyAt = Math.max(SPLIT.busyLevels, SPLIT.busyTail * bareSpread(busy, w, bed.bare)(0.99));
  const detail = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) detail[i] = busy[i]! > busyAt ? 1 : 0;
  const inside = erode(detail, w, h, 3);
  for (let y = area.y0; y < area.y1; y++) for (let x = area.x0; x < area.x1; x++) if (inside[y * w + x]) mask[y * w + x] = 1;
  return { area, bed, solid: fillHoles(open(mask, w, h, SPLIT.openRadius), w, h) };
}

/** Finds the prints on the detection copy `img`. */
export function detectPrints(img: Rgb): Detection {
  const { width: w, height: h } = img;
  const found = printMask(img);
  if (!('solid' in found)) {
    // No bare bed around the edges: a patterned page (one texture all round, so the same colour on average
    // everywhere) or a photo (sky at the top, ground at the bottom).
    const code: KeptWholeCode = found.ringDrift <= SPLIT.patternDrift ? 'patterned' : 'single-photo';
    return { prints: [], keptWhole: { code }, stats: { flatShare: found.flatShare, ringSpread: found.ringSpread, pieces: [] } };
  }
  const { area, bed, solid } = found;
  const { pixels } = maskRegions(solid, w, h, 0);
  const areaPixels = (area.x1 - area.x0) * (area.y1 - area.y0);
  const short = Math.min(area.x1 - area.x0, area.y1 - area.y0);
  const pieces: PieceStats[] = [];
  const prints: RotatedRect[] = [];
  let doubt: { code: KeptWholeCode; at: Box } | undefined;
  let specks = 0;
  for (const px of pixels) {
    if (px.length < SPLIT.minPrintArea * areaPixels) {
      if (px.length >= SPLIT.speckPixels) specks++;
      continue;
    }
    const piece = examinePiece(px, solid, w, h, short);
    if (!piece) continue;
    const edge = edgeContact(px, w, area);
    let verdict: PieceStats['verdict'] = 'print';
    if (edge > SPLIT.edgeContact) verdict = 'cut';
    else if (piece.touching) verdict = 'touching';
    pieces.push({ ...piece.stats, edge, verdict });
    if (verdict !== 'print') {
      if (!doubt || rank(verdict) < rank(doubt.code)) doubt = { code: verdict, at: piece.stats.box };
      continue;
    }
    prints.push(...piece.prints);
  }
  const stats = { flatShare: bed.flatShare, ringSpread: bed.ringSpread, noise: round3(bed.noise), tail: round3(bed.tail), specks, pieces };
  // A page printed with dots or flowers: the bed's own pixels stray far from its colour, or its motifs make many
  // small pieces (dust makes a few; most of it is cut off with the specks). With prints on it, an album page; with
  // one or none, most likely a photo whose edges happen to be plain in places.
  if (bed.tail > SPLIT.patternTail || specks > SPLIT.patternSpecks) {
    return { prints: [], keptWhole: { code: prints.length >= 2 ? 'patterned' : 'single-photo' }, stats };
  }
  // A piece off the edge with no print beside it is most likely a photo's subject (a bowl on a plain table).
  if (doubt) return { prints: [], keptWhole: doubt.code === 'cut' && !prints.length ? { code: 'single-photo' } : doubt, stats };
  if (prints.length > SPLIT.maxPrints) return { prints: [], keptWhole: { code: 'too-many' }, stats };
  if (!prints.length) return { prints: [], keptWhole: { code: 'no-prints' }, stats };
  // Reading order: rows from the top, left to right within a row (a row: centres within half a print's height).
  return { prints: readingOrder(prints), stats };
}

/** Which doubt is reported when there are several: the one the buyer can most easily fix. */
const rank = (code: KeptWholeCode) => ['cut', 'touching', 'patterned', 'too-many', 'no-prints', 'single-photo'].indexOf(code);

/** Pixels over `seed` and the pixels connected to them (8 neighbours) over `grow`, inside the area. */
function hysteresis(dist: Float32Array, w: number, h: number, area: Area, seed: number, grow: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const queue = new Int32Array(w * h);
  let tail = 0;
  for (let y = area.y0; y < area.y1; y++) for (let x = area.x0, i = y * w + x; x < area.x1; x++, i++) {
    if (dist[i]! > seed) {
      out[i] = 1;
      queue[tail++] = i;
    }
  }
  for (let head = 0; head < tail; head++) {
    const i = queue[head]!, x = i % w, y = (i - x) / w;
    for (let yy = Math.max(area.y0, y - 1); yy <= Math.min(area.y1 - 1, y + 1); yy++) {
      for (let xx = Math.max(area.x0, x - 1); xx <= Math.min(area.x1 - 1, x + 1); xx++) {
        const j = yy * w + xx;
        if (!out[j] && dist[j]! > grow) {
          out[j] = 1;
          queue[tail++] = j;
        }
      }
    }
  }
  return out;
}

/** How many of a piece's pixels lie on the area's outermost lines. */
function edgeContact(px: Int32Array, w: number, area: Area): number {
  let n = 0;
  for (const i of px) {
    const x = i % w, y = (i - x) / w;
    if (x <= area.x0 || y <= area.y0 || x >= area.x1 - 1 || y >= area.y1 - 1) n++;
  }
  return n;
}

function readingOrder(rects: RotatedRect[]): RotatedRect[] {
  const sorted = [...rects].sort((a, b) => a.cy - b.cy);
  const rows: RotatedRect[][] = [];
  for (const r of sorted) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(r.cy - row[0]!.cy) < Math.min(r.height, row[0]!.height) / 2) row.push(r);
    else rows.push([r]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.cx - b.cx));
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
