// Generated test scenes for the video engine: a subject over a textured background, where the true subject
// mask is known. Used by the parallax benchmark and the video tests (deterministic: the same scene every run).
import sharp from 'sharp';
import { mulberry32 } from '../../src/lib/random';

/** A sitter's head and shoulders, an object in the middle, a small full figure, or no subject at all. */
export type SceneKind = 'portrait' | 'object' | 'figure' | 'none';

export type Scene = { kind: SceneKind; jpeg: Buffer; width: number; height: number; subjectSvg: string };

/** Background: a gradient with scattered squares, discs and bars in cool, muted colours (plenty of corners). */
function backgroundSvg(width: number, height: number, seed: number): string {
  const random = mulberry32(seed);
  const shapes: string[] = [];
  for (let i = 0; i < 260; i++) {
    const x = random() * width;
    const y = random() * height;
    const s = 6 + random() * Math.min(width, height) * 0.05;
    const hue = 160 + random() * 80;
    const light = 30 + random() * 45;
    const fill = `hsl(${hue.toFixed(0)},${(15 + random() * 35).toFixed(0)}%,${light.toFixed(0)}%)`;
    const pick = random();
    if (pick < 0.4) shapes.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${s.toFixed(1)}" height="${(s * (0.5 + random())).toFixed(1)}" fill="${fill}"/>`);
    else if (pick < 0.75) shapes.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(s / 2).toFixed(1)}" fill="${fill}"/>`);
    else shapes.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(s * 3).toFixed(1)}" height="${(s / 4).toFixed(1)}" fill="${fill}" transform="rotate(${(random() * 180).toFixed(0)} ${x.toFixed(1)} ${y.toFixed(1)})"/>`);
  }
  return `<defs><linearGradient id="bg" x1="0" x2="0.3" y1="0" y2="1"><stop offset="0" stop-color="#7d9cb8"/><stop offset="1" stop-color="#4f6f66"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>${shapes.join('')}`;
}

/** The subject's shapes with a warm texture (stripes and dots), so features inside it can be tracked. */
function subjectSvg(kind: SceneKind, width: number, height: number): string {
  const u = Math.min(width, height);
  const cx = width / 2;
  const pattern = `<defs><pattern id="cloth" width="${(u * 0.05).toFixed(1)}" height="${(u * 0.05).toFixed(1)}" patternUnits="userSpaceOnUse" patternTransform="rotate(30)">
      <rect width="100%" height="100%" fill="#c0392b"/><rect width="40%" height="100%" fill="#e67e22"/><circle cx="${(u * 0.035).toFixed(1)}" cy="${(u * 0.015).toFixed(1)}" r="${(u * 0.008).toFixed(1)}" fill="#f9e79f"/></pattern></defs>`;
  if (kind === 'portrait') {
    const headY = height * 0.36;
    const headR = u * 0.17;
    return `${pattern}
      <path d="M ${cx - u * 0.42} ${height} C ${cx - u * 0.4} ${height * 0.62}, ${cx - u * 0.2} ${height * 0.56}, ${cx} ${height * 0.56} C ${cx + u * 0.2} ${height * 0.56}, ${cx + u * 0.4} ${height * 0.62}, ${cx + u * 0.42} ${height} Z" fill="url(#cloth)"/>
      <ellipse cx="${cx}" cy="${headY}" rx="${headR * 0.85}" ry="${headR}" fill="#e0ac69"/>
      <ellipse cx="${cx}" cy="${headY - headR * 0.55}" rx="${headR * 0.9}" ry="${headR * 0.55}" fill="#3b2314"/>
      <circle cx="${cx - headR * 0.35}" cy="${headY}" r="${headR * 0.09}" fill="#2c1a0e"/>
      <circle cx="${cx + headR * 0.35}" cy="${headY}" r="${headR * 0.09}" fill="#2c1a0e"/>
      <rect x="${cx - headR * 0.3}" y="${headY + headR * 0.45}" width="${headR * 0.6}" height="${headR * 0.12}" fill="#8e3b2f"/>`;
  }
  if (kind === 'none') return '';
  if (kind === 'object') {
    return `${pattern}
      <ellipse cx="${cx}" cy="${height * 0.55}" rx="${u * 0.22}" ry="${u * 0.27}" fill="url(#cloth)"/>
      <rect x="${cx - u * 0.07}" y="${height * 0.55 - u * 0.4}" width="${u * 0.14}" height="${u * 0.16}" fill="#d35400"/>`;
  }
  return `${pattern}
    <circle cx="${width * 0.42}" cy="${height * 0.3}" r="${u * 0.08}" fill="#e0ac69"/>
    <rect x="${width * 0.42 - u * 0.11}" y="${height * 0.3 + u * 0.09}" width="${u * 0.22}" height="${u * 0.42}" rx="${u * 0.05}" fill="url(#cloth)"/>`;
}

/** A deterministic scene of the given kind and size, as a JPEG, with its subject's SVG (for a true mask). */
export async function makeScene(kind: SceneKind, width: number, height: number, seed = 7): Promise<Scene> {
  const subject = subjectSvg(kind, width, height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${backgroundSvg(width, height, seed)}${subject}</svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
  return { kind, jpeg, width, height, subjectSvg: subject };
}

/** The scene's true subject mask (1 = subject) at the given size. */
export async function sceneMask(scene: Scene, width = scene.width, height = scene.height): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}"><rect width="100%" height="100%" fill="#000"/><g style="filter:none">${scene.subjectSvg.replace(/fill="[^"]*"/g, 'fill="#fff"')}</g></svg>`;
  const grey = await sharp(Buffer.from(svg)).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();
  return Uint8Array.from(grey, (v) => (v > 127 ? 1 : 0));
}
