// ffmpeg filtergraph pieces for the cinematic look (the frames themselves are composed in compose.ts).

/** Height of each letterbox bar: 2.39:1 scope inside landscape frames, 8 % bars otherwise; even for 4:2:0. */
export function letterboxBar(width: number, height: number): number {
  const scope = width / 2.39;
  const bar = width > height && scope < height ? (height - scope) / 2 : height * 0.08;
  return Math.max(2, Math.floor(bar / 2) * 2);
}

/**
 * Screen-space part of the cinematic look (the colour grade is applied to the still beforehand,
 * since it's per-pixel and the same on every frame): vignette, temporal luma grain, then the
 * letterbox bars last so they stay pure black.
 */
export function cinematicFilter(width: number, height: number): string {
  const bar = letterboxBar(width, height);
  return [
    'vignette=angle=PI/4.2',
    'noise=c0s=3:c0f=t',
    `drawbox=x=0:y=0:w=iw:h=${bar}:color=black:t=fill`,
    `drawbox=x=0:y=ih-${bar}:w=iw:h=${bar}:color=black:t=fill`,
  ].join(',');
}
