// The video tool's modes and length, shared by the island and the server.

/** Every video is exactly this long: 150 frames at 30 fps. */
export const VIDEO_DURATION_SECONDS = 5;

export type VideoMode = 'standard' | 'cinematic';

export const VIDEO_MODES: { id: VideoMode; name: string; description: string }[] = [
  { id: 'standard', name: 'Standard', description: `Balanced quality, ${VIDEO_DURATION_SECONDS}-second duration` },
  { id: 'cinematic', name: 'Cinematic', description: `Premium, enhanced visual effects, ${VIDEO_DURATION_SECONDS}-second duration` },
];

export const VIDEO_FPS = 30;
export const VIDEO_FRAMES = VIDEO_DURATION_SECONDS * VIDEO_FPS;

/** The clip's size: the short side is 720 or 1080 pixels, the long side follows the photo's aspect. */
export const VIDEO_RESOLUTIONS = ['720p', '1080p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];
export const DEFAULT_VIDEO_RESOLUTION: VideoResolution = '720p';

export const RESOLUTION_SHORT_SIDE: Record<VideoResolution, number> = { '720p': 720, '1080p': 1080 };

export const VIDEO_RESOLUTION_OPTIONS: { id: VideoResolution; name: string }[] = [
  { id: '720p', name: '720p HD' },
  { id: '1080p', name: '1080p Full HD' },
];

/**
 * The watermarked preview's short side, whatever was chosen: below the cheapest paid file's (720p), so the
 * preview is never the product even where its marks could be undone.
 */
export const PREVIEW_SHORT_SIDE = 480;

/** The video tab's two switches, as the buyer reads them (labels and error messages). */
export const VIDEO_OPTION_NAMES = {
  restoreFirst: 'Restore & colorize first',
  animateFaces: 'Bring faces to life',
} as const;
