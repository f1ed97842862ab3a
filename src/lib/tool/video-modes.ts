// The video tool's modes and length, shared by the island and the server.

export type VideoMode = 'standard' | 'cinematic';

export const VIDEO_MODES: { id: VideoMode; name: string; description: string }[] = [
  { id: 'standard', name: 'Standard', description: 'Balanced quality, 5-second duration' },
  { id: 'cinematic', name: 'Cinematic', description: 'Premium, enhanced visual effects, 5-second duration' },
];

/** Every video is exactly this long: 150 frames at 30 fps. */
export const VIDEO_DURATION_SECONDS = 5;
export const VIDEO_FPS = 30;
export const VIDEO_FRAMES = VIDEO_DURATION_SECONDS * VIDEO_FPS;
