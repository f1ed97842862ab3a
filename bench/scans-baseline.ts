// The bench's yardstick for the scan splitter: a plain threshold-and-contour splitter, as the usual short scripts
// do it (grey, one global threshold, outer contours, the rotated rectangle of least area around each). Not in the
// product. It sees the same detection copy as the splitter, and drops the same small pieces (dust), so the two
// differ only in how they find prints and when they keep a scan whole (this one: only when it finds nothing).
import { convexHull, minAreaRect, rectCorners, type Quad, decodeRgb, fillHoles, open, outline, SPLIT, scanSize } from '../engines/scans';
import { maskRegions } from '../engines/shared';

export type BaselineAnswer = { whole: boolean; prints: { corners: Quad; angle: number }[] };

export async function baselineSplit(bytes: Buffer): Promise<BaselineAnswer> {
  const size = await scanSize(bytes);
  const img = await decodeRgb(bytes, SPLIT.detectSide);
  const { width: w, height: h } = img;
  const grey = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) grey[i] = 0.299 * img.data[3 * i]! + 0.587 * img.data[3 * i + 1]! + 0.114 * img.data[3 * i + 2]!;
  // The background: the median grey of a band 2 % wide along the edges.
  const band = Math.max(2, Math.round(0.02 * Math.min(w, h)));
  const ring: number[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (x < band || y < band || x >= w - band || y >= h - band) ring.push(grey[y * w + x]!);
  const bg = Float64Array.from(ring).sort()[ring.length >> 1]!;
  // Otsu's threshold on the distance from it.
  const hist = new Float64Array(256);
  const diff = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) hist[(diff[i] = Math.min(255, Math.round(Math.abs(grey[i]! - bg))))]!++;
  const t = otsu(hist, w * h);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) mask[i] = diff[i]! > t ? 1 : 0;
  const solid = fillHoles(open(mask, w, h, 1), w, h);
  const sx = size.width / w, sy = size.height / h;
  const prints: BaselineAnswer['prints'] = [];
  for (const px of maskRegions(solid, w, h, 0).pixels) {
    if (px.length < SPLIT.minPrintArea * w * h) continue;
    const rect = minAreaRect(convexHull(outline(px, solid, w, h)));
    if (Math.min(rect.width, rect.height) + 1 < SPLIT.minPrintSide * Math.min(w, h)) continue;
    const grown = { ...rect, width: rect.width + 1, height: rect.height + 1 };
    prints.push({ corners: rectCorners(grown).map(([x, y]) => [x * sx, y * sy]) as unknown as Quad, angle: rect.angle });
  }
  return { whole: prints.length === 0, prints };
}

function otsu(hist: Float64Array, n: number): number {
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let wB = 0, sumB = 0, best = 0, bestT = 0;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (!wB || wB === n) continue;
    sumB += t * hist[t]!;
    const mB = sumB / wB, mF = (sum - sumB) / (n - wB);
    const between = wB * (n - wB) * (mB - mF) ** 2;
    if (between > best) { best = between; bestT = t; }
  }
  return bestT;
}
