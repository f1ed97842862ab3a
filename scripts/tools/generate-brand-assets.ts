/**
 * Renders the site's own illustrations (share card, about-page art, client logos) from SVG with sharp.
 * Run once after changing the brand: `npx tsx scripts/tools/generate-brand-assets.ts`; the outputs are committed.
 */
import sharp from 'sharp';
import { writeFile } from 'node:fs/promises';

const brand = 'Lumora AI';

function art(w: number, h: number, hueA: string, hueB: string, motif: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hueA}"/><stop offset="1" stop-color="${hueB}"/></linearGradient>
  <radialGradient id="r" cx="0.7" cy="0.3" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.35"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#r)"/>${motif}</svg>`;
}

function nodes(w: number, h: number, seed: number): string {
  let s = seed;
  const rnd = () => ((s = (s * 9301 + 49297) % 233280) / 233280);
  const pts = Array.from({ length: 18 }, () => [rnd() * w, rnd() * h] as const);
  const lines = pts.flatMap((a, i) => pts.slice(i + 1, i + 3).map((b) => `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}" stroke="#fff" stroke-opacity="0.35" stroke-width="2"/>`));
  const dots = pts.map((p) => `<circle cx="${p[0]}" cy="${p[1]}" r="${6 + rnd() * 8}" fill="#fff" fill-opacity="0.8"/>`);
  return lines.join('') + dots.join('');
}

const outputs: [string, string][] = [
  ['public/og-image.png', art(1200, 630, '#312e81', '#0e7490', nodes(1200, 630, 7) + `<text x="80" y="360" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="96" fill="#fff">${brand}</text><text x="84" y="430" font-family="DejaVu Sans, sans-serif" font-size="36" fill="#e0e7ff">AI services that ship results</text>`)],
  ['src/assets/images/about-mission.png', art(1200, 800, '#1e1b4b', '#4338ca', nodes(1200, 800, 3))],
  ['src/assets/images/about-technology.png', art(1200, 800, '#082f49', '#0891b2', nodes(1200, 800, 11))],
  ['src/assets/images/about-approach.png', art(1200, 800, '#3b0764', '#be185d', nodes(1200, 800, 19))],
];

for (const [file, svg] of outputs) {
  await writeFile(file, await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: false }).toBuffer());
  console.log('wrote', file);
}

const clients = ['Brightside Dental', 'Northwind Outdoor', 'Cobalt Legal', 'Harbor Health', 'Atlas Freight', 'Juniper Schools'];
const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="160" viewBox="0 0 1200 160" role="img" aria-labelledby="t"><title id="t">Client logos: ${clients.join(', ')}</title>${clients
  .map((c, i) => {
    const x = 20 + (i % 3) * 400;
    const y = i < 3 ? 50 : 125;
    return `<g transform="translate(${x},${y})"><circle cx="14" cy="-8" r="14" fill="#8b9cff"/><text x="38" y="0" font-family="system-ui, sans-serif" font-weight="700" font-size="28" fill="#aab4cf">${c}</text></g>`;
  })
  .join('')}</svg>`;
await writeFile('public/media/client-logos.svg', logo);
console.log('wrote public/media/client-logos.svg');
