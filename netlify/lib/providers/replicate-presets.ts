import { VIDEO_DURATION_SECONDS } from '../../../src/lib/tool/video-modes';

/**
 * Hosted models an operator picks by name (REPLICATE_COLORIZER_MODEL=ddcolor, REPLICATE_VIDEO_MODEL=kling), or by
 * their Replicate name (kwaivgi/kling-v2.1), which finds the same row. Each row says which input carries the photo,
 * what else every run sends (the clip length the model accepts, audio off), and how the photo's shape is passed on.
 * The version is not pinned: a community model is run at its latest version, resolved through
 * `GET /v1/models/{owner}/{name}` (providers/replicate-client.ts), an official model through its own endpoint — and
 * `npm run doctor` checks every field here against the live schema, so a model that changes its inputs is named
 * before a buyer meets it. A model not in the table still runs through REPLICATE_*_MODEL, _IMAGE_KEY / _INPUT_KEY
 * and REPLICATE_VIDEO_INPUT (docs/configuration.md).
 *
 * Sources of the fields (read 2026-12; the doctor re-checks them against the schema Replicate serves):
 * - ddcolor: replicate.com/piddnad/ddcolor (a community model); its inputs `image` and `model_size` (large | tiny)
 *   as public integrations call it (version ca494ba1…); the DDColor paper's model is the large one.
 * - deoldify: replicate.com/arielreplicate/deoldify_image (community, version 0da600fa…): `input_image`,
 *   `model_name` (Artistic | Stable), `render_factor` (35 by default in the DeOldify notebooks).
 * - kling: replicate.com/kwaivgi/kling-v2.1 (official): `start_image` required, `prompt` required, `duration` 5 | 10,
 *   `mode` standard (720p) | pro (1080p), no aspect ratio input (the clip takes the start image's), no audio;
 *   Kling's pages cap an input image at 10 MB.
 * - hailuo: replicate.com/minimax/hailuo-02 API page (official): `first_frame_image` ("the output video will have
 *   the same aspect ratio as this image"), `duration` 6 | 10 (10 only at 768p), `resolution` 512p | 768p | 1080p,
 *   no audio. The 6-second clip is trimmed to the product's 5 seconds.
 * - wan: wan-video/wan-2.2-i2v-fast as Replicate serves it (mirrored by Segmind's and Pruna's API pages): `image`,
 *   `prompt`, `num_frames` 81 at `frames_per_second` 16 (5.06 s, trimmed to 5 s), `resolution` 480p | 720p; the clip
 *   keeps the image's shape; no audio.
 * - seedance: replicate.com/bytedance/seedance-2.0-fast API page: `image` (first frame), `duration` (-1…15, default
 *   5), `resolution` 480p | 720p, `aspect_ratio` default 16:9 (options 1:1, 3:4, 4:3, 9:16, 16:9, 21:9, adaptive),
 *   `generate_audio` default true — so the ratio nearest the photo is sent and audio is turned off; 10 MB per image.
 * - Replicate's HTTP API (its OpenAPI description, 2026): data URLs for files up to 256 KB, `POST /v1/files` for
 *   larger ones; `Cancel-After` on create; a model object's `is_official` and `latest_version.openapi_schema`.
 */

export type PresetKind = 'colorizer' | 'video';

export interface ReplicatePreset {
  id: string;
  kind: PresetKind;
  /** Replicate's "owner/name". */
  model: string;
  /** The input that carries the photo. */
  imageKey: string;
  /** Inputs every run sends (clip length, resolution, audio off …). */
  input: Record<string, unknown>;
  /** Seconds of video the model renders with `input`; the clip is trimmed to the product's length. */
  renderedSeconds?: number;
  /** The input that takes an aspect ratio, and the ratios it accepts: the one nearest the photo is sent. */
  aspectRatio?: { key: string; choices: readonly string[] };
  /** The largest image the model accepts, in bytes; a larger photo is sent as a downscaled copy. */
  maxImageBytes?: number;
  /** What the operator reads in docs and the doctor's lines. */
  label: string;
}

const MB = 1024 * 1024;

export const REPLICATE_PRESETS: readonly ReplicatePreset[] = [
  { id: 'ddcolor', kind: 'colorizer', label: 'DDColor', model: 'piddnad/ddcolor', imageKey: 'image', input: { model_size: 'large' } },
  {
    id: 'deoldify',
    kind: 'colorizer',
    label: 'DeOldify',
    model: 'arielreplicate/deoldify_image',
    imageKey: 'input_image',
    input: { model_name: 'Artistic', render_factor: 35 },
  },
  {
    id: 'kling',
    kind: 'video',
    label: 'Kling 2.1',
    model: 'kwaivgi/kling-v2.1',
    imageKey: 'start_image',
    input: { duration: 5, mode: 'standard' },
    renderedSeconds: 5,
    maxImageBytes: 10 * MB,
  },
  {
    id: 'hailuo',
    kind: 'video',
    label: 'Hailuo 02',
    model: 'minimax/hailuo-02',
    imageKey: 'first_frame_image',
    input: { duration: 6, resolution: '768p' },
    renderedSeconds: 6,
    maxImageBytes: 10 * MB,
  },
  {
    id: 'wan',
    kind: 'video',
    label: 'Wan 2.2 image-to-video (fast)',
    model: 'wan-video/wan-2.2-i2v-fast',
    imageKey: 'image',
    input: { num_frames: 81, frames_per_second: 16, resolution: '720p' },
    renderedSeconds: 81 / 16,
    maxImageBytes: 10 * MB,
  },
  {
    id: 'seedance',
    kind: 'video',
    label: 'Seedance 2.0 fast',
    model: 'bytedance/seedance-2.0-fast',
    imageKey: 'image',
    input: { duration: VIDEO_DURATION_SECONDS, resolution: '720p', generate_audio: false },
    renderedSeconds: VIDEO_DURATION_SECONDS,
    aspectRatio: { key: 'aspect_ratio', choices: ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'] },
    maxImageBytes: 10 * MB,
  },
];

/** The preset a REPLICATE_*_MODEL value names: its id ("kling") or its model ("kwaivgi/kling-v2.1", a version too). */
export function findPreset(kind: PresetKind, spec: string | undefined): ReplicatePreset | undefined {
  const value = spec?.trim().toLowerCase();
  if (!value) return undefined;
  const model = value.split(':')[0];
  return REPLICATE_PRESETS.find((p) => p.kind === kind && (p.id === value || p.model === model));
}

/** The ratio in `choices` ("w:h") nearest the photo's, compared on a log scale (so 4:3 and 3:4 are as far from 1:1). */
export function nearestAspectRatio(width: number, height: number, choices: readonly string[]): string {
  const target = Math.log(width / height);
  let best = choices[0]!;
  let bestDistance = Infinity;
  for (const choice of choices) {
    const [w, h] = choice.split(':').map(Number);
    if (!w || !h) continue;
    const distance = Math.abs(Math.log(w / h) - target);
    if (distance < bestDistance) [best, bestDistance] = [choice, distance];
  }
  return best;
}
