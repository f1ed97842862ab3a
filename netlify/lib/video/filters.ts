import type { CameraPath, Easing } from './motion';

// ffmpeg filtergraph builders. The camera runs in the `perspective` filter with per-frame
// expressions (eval=frame), which samples the source at fractional coordinates with bilinear
// interpolation — unlike zoompan/crop, whose integer positions make slow moves judder.

const num = (v: number) => Number(v.toPrecision(10)).toString();

/** `perspective`'s `in` variable counts input frames from 1. */
function easeExpr(easing: Easing, frames: number): string {
  const t = `clip((in-1)/${Math.max(1, frames - 1)},0,1)`;
  const e =
    easing === 'linear'
      ? 'ld(0)'
      : easing === 'in'
        ? '1-cos(PI*ld(0)/2)'
        : easing === 'out'
          ? 'sin(PI*ld(0)/2)'
          : '0.5-0.5*cos(PI*ld(0))';
  return `st(0,${t});st(1,${e})`;
}

/**
 * The perspective filter for a camera path over a source already scaled to the output size
 * (`sense=source`: each output corner samples the given source point). Mirrors cameraRectAt().
 */
export function cameraFilter(path: CameraPath): string {
  const { from: a, to: b } = path;
  const pre = easeExpr(path.easing, path.frames);
  const axis = (pos0: number, size0: number, pos1: number, size1: number, dim: 'W' | 'H', edge: -1 | 1) => {
    const c0 = pos0 + size0 / 2;
    const dc = pos1 + size1 / 2 - c0;
    const ratio = size1 / size0;
    // centre ± half the geometrically interpolated size, in pixels
    return `'${pre};${dim}*(${num(c0)}+${num(dc)}*ld(1)${edge < 0 ? '-' : '+'}${num(size0 / 2)}*pow(${num(ratio)},ld(1)))'`;
  };
  const left = axis(a.x, a.w, b.x, b.w, 'W', -1);
  const right = axis(a.x, a.w, b.x, b.w, 'W', 1);
  const top = axis(a.y, a.h, b.y, b.h, 'H', -1);
  const bottom = axis(a.y, a.h, b.y, b.h, 'H', 1);
  return (
    `perspective=x0=${left}:y0=${top}:x1=${right}:y1=${top}:x2=${left}:y2=${bottom}:x3=${right}:y3=${bottom}` +
    ':interpolation=linear:sense=source:eval=frame'
  );
}

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
