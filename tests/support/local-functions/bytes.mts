import type { Config } from '@netlify/functions';

// A body of `?size=` bytes (default 4096) with its length, like the files and downloads functions answer a video.
export default (req: Request) => {
  const size = Number(new URL(req.url).searchParams.get('size') ?? 4096);
  return new Response(new Uint8Array(size).fill(7), { headers: { 'content-type': 'video/mp4', 'content-length': String(size) } });
};

export const config: Config = { path: '/fixture/bytes' };
