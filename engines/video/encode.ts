// The one place the H.264 encoder settings live: the embedded renderer and the hosted engine's finishing
// pass both take their x264 arguments from here.

/** Encoder knobs; the defaults are the production choice (measured with `npm run bench -- video`). */
export type EncodeOptions = { crf?: number; previewCrf?: number; preset?: string };

export const DEFAULT_ENCODE: Required<EncodeOptions> = { crf: 22, previewCrf: 24, preset: 'superfast' };

/**
 * libx264 into a browser-playable MP4: 4:2:0, moov atom first (playback starts before the whole file has
 * arrived), no audio. `fps` and `frames` pin the output's rate and length when the input is a generated stream.
 */
export function x264Args(opts: { crf: number; preset: string; fps?: number; frames?: number }): string[] {
  return [
    '-c:v', 'libx264', '-preset', opts.preset, '-crf', String(opts.crf), '-pix_fmt', 'yuv420p',
    ...(opts.fps ? ['-r', String(opts.fps)] : []),
    ...(opts.frames ? ['-frames:v', String(opts.frames)] : []),
    '-movflags', '+faststart', '-an',
  ];
}
