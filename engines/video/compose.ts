// Every frame of the clip, made here and streamed to ffmpeg as yuv420p: the background moved by its map
// (each output row reads one source row, so a row costs one bilinear sample per pixel in fixed point), then the
// subject layer, if any, blended over it with its alpha. ffmpeg only adds the look and encodes.

import { progressAt } from './motion';
import { BackgroundMap, type Depth, type Motion } from './parallax/plan';
import type { SubjectRenderer } from './parallax/subject-layer';
import type { Yuv420 } from './yuv';
import { ONE, sampleAt, sampleRow } from './sampling';


export class FrameComposer {
  private readonly map: BackgroundMap;
  private readonly row = new Float64Array(3);
  /** The current row's runs the subject covers completely (see SubjectRenderer.covers). */
  private readonly skip = new Int32Array(1024);

  constructor(
    private readonly background: Yuv420,
    private readonly motion: Motion,
    depth: Depth,
    private readonly subject: SubjectRenderer | null = null,
  ) {
    this.map = new BackgroundMap(motion, depth);
  }

  /** Bytes of one yuv420p frame. */
  get frameBytes(): number {
    const { width, height } = this.background;
    return width * height + (width / 2) * (height / 2) * 2;
  }

  /** Frame n (0-based) into `out` as yuv420p. */
  render(n: number, out: Uint8Array): void {
    const { width: W, height: H } = this.background;
    const cw = W >> 1;
    const ch = H >> 1;
    this.map.at(progressAt(this.motion.path, n));
    this.subject?.prepare(n);
    const y = out.subarray(0, W * H);
    const u = out.subarray(W * H, W * H + cw * ch);
    const v = out.subarray(W * H + cw * ch, W * H + 2 * cw * ch);
    this.plane(this.background.y, W, H, y, 1);
    this.plane(this.background.u, cw, ch, u, 2);
    this.plane(this.background.v, cw, ch, v, 2);
    this.subject?.draw(y, u, v, W);
  }

  /**
   * One plane of the background: `scale` is 1 for luma, 2 for chroma (whose pixel centres sit at luma
   * 2x + 0.5, and whose source coordinates are (u - 0.5) / 2). Runs the subject covers are skipped.
   */
  private plane(src: Uint8Array, width: number, height: number, dst: Uint8Array, scale: 1 | 2): void {
    const { row, skip } = this;
    const maxV = height - 1.001;
    for (let y = 0; y < height; y++) {
      this.map.row(scale === 1 ? y : y * 2 + 0.5, row);
      let sv = scale === 1 ? row[0]! : (row[0]! - 0.5) / 2;
      sv = sv < 0 ? 0 : sv > maxV ? maxV : sv;
      const beta = row[2]!;
      const first = scale === 1 ? row[1]! : (row[1]! + beta * 0.5 - 0.5) / 2;
      const runs = this.subject ? this.subject.covers(y * scale, skip) : 0;
      let x = 0;
      for (let r = 0; r <= runs; r += 2) {
        const end = r < runs ? skip[r]! / scale : width;
        this.segment(src, width, sv, first, beta, x, end, dst, y * width);
        if (r < runs) x = skip[r + 1]! / scale;
      }
    }
  }

  /** Pixels x0..x1 of one output row: source row sv, source column first + beta · x. */
  private segment(src: Uint8Array, width: number, sv: number, first: number, beta: number, x0: number, x1: number, dst: Uint8Array, o: number): void {
    const maxU = width - 1.001;
    const u0 = first + beta * x0;
    const u1 = first + beta * (x1 - 1);
    if (u0 >= 0 && u1 <= maxU) {
      // Inside the source: 16.16 fixed point, one source row for the whole run.
      const iv = sv | 0;
      sampleRow(src, width, iv * width, ((sv - iv) * 256) | 0, (u0 * ONE) | 0, (beta * ONE) | 0, dst, o, x0, x1);
      return;
    }
    for (let x = x0; x < x1; x++) {
      const u = first + beta * x;
      dst[o + x] = sampleAt(src, width, u < 0 ? 0 : u > maxU ? maxU : u, sv) + 0.5;
    }
  }
}
