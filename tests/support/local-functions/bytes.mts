import type { Config } from '@netlify/functions';

// A fixed 4096-byte body with its length, like the files and downloads functions answer a video.
export default () => new Response(new Uint8Array(4096).fill(7), { headers: { 'content-type': 'video/mp4', 'content-length': '4096' } });

export const config: Config = { path: '/fixture/bytes' };
