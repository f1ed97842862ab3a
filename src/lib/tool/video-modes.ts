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
