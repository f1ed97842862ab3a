// Frames as ffmpeg's yuv420p planes (BT.601, limited range: what ffmpeg assumes for raw input without
// tags, and what it used to convert our RGB stills with), so layers made here and the background ffmpeg
// moves are in exactly the same colours.

export type Yuv420 = {
  width: number;
  height: number;
  y: Uint8Array;
  /** Cb and Cr at half width and half height. */
  u: Uint8Array;
  v: Uint8Array;
};

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** Converts interleaved RGB (even width and height) to yuv420p planes; chroma from each 2×2 block's mean. */
export function rgbToYuv420(rgb: Uint8Array, width: number, height: number): Yuv420 {
  const y = new Uint8Array(width * height);
  const cw = width >> 1;
  const ch = height >> 1;
  const u = new Uint8Array(cw * ch);
  const v = new Uint8Array(cw * ch);
  for (let i = 0; i < width * height; i++) {
    y[i] = clamp8(16 + (65.481 * rgb[i * 3]! + 128.553 * rgb[i * 3 + 1]! + 24.966 * rgb[i * 3 + 2]!) / 255);
  }
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const i = ((cy * 2 + dy) * width + cx * 2 + dx) * 3;
        r += rgb[i]!;
        g += rgb[i + 1]!;
        b += rgb[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      u[cy * cw + cx] = clamp8(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      v[cy * cw + cx] = clamp8(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return { width, height, y, u, v };
}

/** The planes one after another, as ffmpeg's rawvideo yuv420p reads them. */
export function packYuv420(frame: Yuv420): Buffer {
  return Buffer.concat([frame.y, frame.u, frame.v]);
}
