/**
 * Renders the content pages' own media: illustrations and posters (SVG → PNG with sharp), a before/after
 * photo pair for the image services page (a drawn colour scene and an "old photo" version of it: sepia,
 * faded, grain and scratches) and short demo clips (ffmpeg pans over those pictures).
 * Run after changing it: `npx tsx scripts/tools/generate-content-assets.ts`; the outputs are committed.
 */
import sharp from 'sharp';
import { mkdir, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

const assets = 'src/assets/content';
const media = 'public/media/content';
await mkdir(`${assets}/blog`, { recursive: true });
await mkdir(media, { recursive: true });

function rng(seed: number) {
  let s = seed;
  return () => ((s = (s * 9301 + 49297) % 233280) / 233280);
}

const palettes: Record<string, [string, string, string]> = {
  indigo: ['#1e1b4b', '#4338ca', '#a5b4fc'],
  cyan: ['#082f49', '#0891b2', '#67e8f9'],
  rose: ['#3b0764', '#be185d', '#f9a8d4'],
  amber: ['#431407', '#c2410c', '#fdba74'],
  emerald: ['#022c22', '#047857', '#6ee7b7'],
  slate: ['#0f172a', '#334155', '#cbd5e1'],
};

type Motif = 'nodes' | 'waves' | 'bars' | 'grid' | 'frames' | 'rings';

function motif(kind: Motif, w: number, h: number, light: string, seed: number): string {
  const r = rng(seed);
  switch (kind) {
    case 'nodes': {
      const pts = Array.from({ length: 16 }, () => [r() * w, r() * h] as const);
      return pts.flatMap((a, i) => pts.slice(i + 1, i + 3).map((b) => `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}" stroke="${light}" stroke-opacity=".45" stroke-width="3"/>`)).join('') +
        pts.map((p) => `<circle cx="${p[0]}" cy="${p[1]}" r="${8 + r() * 10}" fill="${light}" fill-opacity=".85"/>`).join('');
    }
    case 'waves':
      return Array.from({ length: 6 }, (_, i) => {
        const y = h * (0.3 + i * 0.09);
        return `<path d="M0 ${y} C ${w * 0.25} ${y - 60 - i * 8}, ${w * 0.5} ${y + 60}, ${w} ${y - 20}" fill="none" stroke="${light}" stroke-opacity="${0.25 + i * 0.1}" stroke-width="4"/>`;
      }).join('');
    case 'bars':
      return Array.from({ length: 14 }, (_, i) => {
        const bh = h * (0.15 + r() * 0.55);
        return `<rect x="${w * 0.08 + i * w * 0.06}" y="${h * 0.85 - bh}" width="${w * 0.04}" height="${bh}" rx="6" fill="${light}" fill-opacity=".75"/>`;
      }).join('');
    case 'grid':
      return Array.from({ length: 12 }, (_, i) => {
        const x = w * 0.1 + (i % 4) * w * 0.21;
        const y = h * 0.15 + Math.floor(i / 4) * h * 0.25;
        return `<rect x="${x}" y="${y}" width="${w * 0.18}" height="${h * 0.2}" rx="14" fill="${light}" fill-opacity="${0.2 + r() * 0.5}"/>`;
      }).join('');
    case 'frames':
      return `<rect x="${w * 0.12}" y="${h * 0.18}" width="${w * 0.76}" height="${h * 0.64}" rx="24" fill="none" stroke="${light}" stroke-width="6" stroke-opacity=".8"/><polygon points="${w * 0.45},${h * 0.38} ${w * 0.45},${h * 0.62} ${w * 0.6},${h * 0.5}" fill="${light}"/>`;
    case 'rings':
      return Array.from({ length: 5 }, (_, i) => `<circle cx="${w * 0.62}" cy="${h * 0.48}" r="${40 + i * 45}" fill="none" stroke="${light}" stroke-opacity="${0.8 - i * 0.13}" stroke-width="5"/>`).join('');
  }
}

function art(w: number, h: number, palette: keyof typeof palettes, kind: Motif, seed: number, label = ''): string {
  const [a, b, light] = palettes[palette]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>
  <radialGradient id="r" cx=".7" cy=".3" r=".6"><stop offset="0" stop-color="#fff" stop-opacity=".3"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#r)"/>${motif(kind, w, h, light, seed)}
  ${label ? `<text x="${w * 0.06}" y="${h * 0.92}" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${Math.round(h / 14)}" fill="#fff">${label}</text>` : ''}</svg>`;
}

/** A drawn family snapshot: sky, hills, a house, a tree and three people. */
function scene(w: number, h: number): string {
  const person = (x: number, scale: number, shirt: string) =>
    `<g transform="translate(${x} ${h * 0.58}) scale(${scale})"><circle cx="0" cy="-70" r="26" fill="#e0ac69"/><path d="M-16 -96 q16 -22 32 0 v-6 q-16 -16 -32 0z" fill="#4a2c17"/><rect x="-30" y="-44" width="60" height="90" rx="22" fill="${shirt}"/><rect x="-24" y="44" width="18" height="70" fill="#1f2937"/><rect x="6" y="44" width="18" height="70" fill="#1f2937"/></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#60a5fa"/><stop offset="1" stop-color="#dbeafe"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#sky)"/><circle cx="${w * 0.84}" cy="${h * 0.16}" r="${h * 0.08}" fill="#fde047"/>
  <ellipse cx="${w * 0.2}" cy="${h * 0.2}" rx="90" ry="28" fill="#fff" fill-opacity=".9"/><ellipse cx="${w * 0.55}" cy="${h * 0.12}" rx="120" ry="30" fill="#fff" fill-opacity=".85"/>
  <path d="M0 ${h * 0.62} Q ${w * 0.3} ${h * 0.45} ${w * 0.6} ${h * 0.6} T ${w} ${h * 0.55} V ${h} H 0z" fill="#4d7c0f"/>
  <path d="M0 ${h * 0.75} Q ${w * 0.4} ${h * 0.65} ${w} ${h * 0.78} V ${h} H 0z" fill="#65a30d"/>
  <rect x="${w * 0.58}" y="${h * 0.36}" width="${w * 0.22}" height="${h * 0.24}" fill="#fef3c7"/><polygon points="${w * 0.56},${h * 0.37} ${w * 0.69},${h * 0.24} ${w * 0.82},${h * 0.37}" fill="#b91c1c"/>
  <rect x="${w * 0.66}" y="${h * 0.46}" width="${w * 0.05}" height="${h * 0.14}" fill="#78350f"/><rect x="${w * 0.6}" y="${h * 0.42}" width="${w * 0.04}" height="${h * 0.05}" fill="#93c5fd"/><rect x="${w * 0.74}" y="${h * 0.42}" width="${w * 0.04}" height="${h * 0.05}" fill="#93c5fd"/>
  <rect x="${w * 0.12}" y="${h * 0.4}" width="${w * 0.025}" height="${h * 0.25}" fill="#713f12"/><circle cx="${w * 0.133}" cy="${h * 0.36}" r="${h * 0.11}" fill="#15803d"/>
  ${person(w * 0.3, 1.1, '#2563eb')}${person(w * 0.4, 1.0, '#db2777')}${person(w * 0.48, 0.75, '#f59e0b')}
  </svg>`;
}

async function png(file: string, svg: string) {
  await writeFile(file, await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
  console.log('wrote', file);
}

// Illustrations: [file, palette, motif, seed, label]
const illustrations: [string, keyof typeof palettes, Motif, number, string][] = [
  ['video', 'rose', 'frames', 1, ''], ['web', 'indigo', 'grid', 2, ''], ['automation', 'cyan', 'nodes', 3, ''],
  ['agents', 'indigo', 'nodes', 4, ''], ['research', 'emerald', 'bars', 5, ''], ['voice', 'amber', 'waves', 6, ''],
  ['legal', 'slate', 'grid', 7, ''], ['health', 'emerald', 'rings', 8, ''], ['vet', 'amber', 'rings', 9, ''],
  ['life', 'rose', 'waves', 10, ''], ['course', 'indigo', 'bars', 11, ''], ['vault-dashboard', 'cyan', 'bars', 12, 'Vector Vault · 3 bases'],
  ['superagent', 'indigo', 'rings', 13, ''], ['portfolio-lifequest', 'rose', 'grid', 14, 'LifeQuest AI'],
  ['portfolio-vectorvault', 'cyan', 'grid', 15, 'Vector Vault'], ['portfolio-synapsecore', 'indigo', 'grid', 16, 'SynapseCore'],
  ['creation', 'rose', 'rings', 17, ''],
];
for (const [name, pal, kind, seed, label] of illustrations) await png(`${assets}/${name}.png`, art(1200, 800, pal, kind, seed, label));

const posters: [string, keyof typeof palettes, Motif, string, number, number][] = [
  ['poster-demo', 'indigo', 'frames', 'Studio showreel', 1280, 720], ['poster-product', 'cyan', 'frames', 'Product explainer', 1280, 720],
  ['poster-brand', 'rose', 'waves', 'Brand story', 1280, 720], ['poster-training', 'emerald', 'bars', 'Training module', 1280, 720],
  ['poster-ad', 'amber', 'rings', 'Social ad', 1280, 720], ['poster-real-estate', 'slate', 'grid', 'Property tour', 1280, 720],
  ['short-tip', 'indigo', 'waves', 'AI tip', 720, 1280], ['short-launch', 'rose', 'rings', 'Launch teaser', 720, 1280],
  ['short-recipe', 'amber', 'bars', 'Recipe', 720, 1280], ['short-fitness', 'emerald', 'nodes', 'Workout', 720, 1280],
  ['short-faq', 'cyan', 'grid', 'Quick FAQ', 720, 1280], ['poster-vault', 'cyan', 'nodes', 'Drop · Vectorize · Query', 1280, 720],
  ['poster-superagent', 'indigo', 'nodes', '200+ models · 2,500+ tools', 1280, 720],
];
for (const [name, pal, kind, label, w, h] of posters) await png(`${assets}/${name}.png`, art(w, h, pal, kind, w + h + name.length, label));

const blog: [string, keyof typeof palettes, Motif][] = [
  ['ai-strategy', 'indigo', 'nodes'], ['automation-wins', 'cyan', 'bars'], ['video-marketing', 'rose', 'frames'],
  ['agents-customer-service', 'emerald', 'nodes'], ['research-playbook', 'slate', 'bars'], ['photo-restoration', 'amber', 'waves'],
];
for (const [name, pal, kind] of blog) await png(`${assets}/blog/${name}.png`, art(1200, 675, pal, kind, name.length * 7));

// Before/after photo pair.
const W = 1200, H = 800;
const colour = await sharp(Buffer.from(scene(W, H))).png().toBuffer();
await writeFile(`${assets}/photo-restored.png`, colour);
const r = rng(99);
const scratches = Array.from({ length: 28 }, () => {
  const x = r() * W, y = r() * H;
  return `<path d="M${x} ${y} l${(r() - 0.5) * 60} ${120 + r() * 300}" stroke="#fffbe6" stroke-opacity="${0.4 + r() * 0.5}" stroke-width="${1 + r() * 2}" fill="none"/>`;
}).join('') + Array.from({ length: 160 }, () => `<circle cx="${r() * W}" cy="${r() * H}" r="${0.6 + r() * 2.2}" fill="${r() > 0.5 ? '#fff' : '#2b1d0e'}" fill-opacity=".7"/>`).join('') +
  `<path d="M0 ${H * 0.7} L ${W} ${H * 0.52}" stroke="#f5f0e1" stroke-width="5" stroke-opacity=".8"/>` +
  `<rect width="${W}" height="${H}" fill="none" stroke="#f3ead2" stroke-width="40" stroke-opacity=".6"/>`;
const noise = await sharp({ create: { width: W, height: H, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
const grey = await sharp(colour).greyscale().blur(1.6).toBuffer();
await writeFile(
  `${assets}/photo-original.png`,
  await sharp(grey)
    .composite([{ input: noise, blend: 'overlay' }])
    .linear(0.62, 70)
    .tint({ r: 180, g: 140, b: 95 })
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${scratches}</svg>`) }])
    .png({ compressionLevel: 9 })
    .toBuffer(),
);
await writeFile(`${assets}/photo-greyscale.png`, await sharp(colour).greyscale().png().toBuffer());
console.log('wrote photo pair');

// Clips: a slow pan/zoom over a picture, 5 s, silent, small.
function clip(input: string, output: string, w: number, h: number, seconds = 5) {
  const frames = seconds * 25;
  const result = spawnSync(ffmpeg.path, [
    '-y', '-loop', '1', '-i', input, '-t', String(seconds),
    '-vf', `scale=${w * 2}:${h * 2}:force_original_aspect_ratio=increase,crop=${w * 2}:${h * 2},zoompan=z='min(zoom+0.0015,1.2)':d=${frames}:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=${w}x${h}:fps=25,format=yuv420p`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-movflags', '+faststart', '-an', output,
  ]);
  if (result.status !== 0) throw new Error(result.stderr.toString());
  console.log('wrote', output);
}
const landscape = ['demo', 'product', 'brand', 'training', 'ad', 'real-estate', 'vault', 'superagent'];
for (const name of landscape) clip(`${assets}/poster-${name}.png`, `${media}/${name}.mp4`, 640, 360);
for (const name of ['tip', 'launch', 'recipe', 'fitness', 'faq']) clip(`${assets}/short-${name}.png`, `${media}/short-${name}.mp4`, 360, 640);
clip(`${assets}/photo-restored.png`, `${media}/photo-motion.mp4`, 640, 426);
