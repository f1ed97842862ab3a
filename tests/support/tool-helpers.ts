import sharp from 'sharp';
import { OWNER_SECRET_HEADER } from '../../src/lib/tool/ownership';

export const BASE = 'http://localhost:8888';

/** A greyscale "old photo": gradient sky, a darker subject, some noise. */
export async function greyPhoto(width = 320, height = 240, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sky = 200 - (y / height) * 80;
      const dx = x - width / 2, dy = y - height * 0.6;
      const subject = dx * dx + dy * dy < (height / 4) ** 2 ? 70 : 0;
      raw[y * width + x] = Math.max(0, Math.min(255, Math.round(sky - subject + ((x * 7 + y * 13) % 11) - 5)));
    }
  }
  const img = sharp(raw, { raw: { width, height, channels: 1 } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg({ quality: 90 }).toBuffer();
}

/** The first 64 bytes of a PNG whose IHDR declares width × height (8-bit grey), and nothing else. */
export function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8; b[25] = 0;
  return b;
}

/** A PNG whose header claims 100 000 × 100 000 pixels (a decompression bomb's signature). */
export const pngBombHeader = (): Buffer => pngHeader(100_000, 100_000);

export function multipart(fields: Record<string, string | { name: string; type: string; bytes: Buffer }>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.name);
  }
  return form;
}

export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** A colour photo laid out like greyPhoto: blue sky above, a red subject in the lower middle. */
export async function colourScene(width = 320, height = 240): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - width / 2, dy = y - height * 0.6;
      const shade = 1 - (y / height) * 0.3;
      const px = dx * dx + dy * dy < (height / 4) ** 2 ? [190, 35, 30] : [95 * shade, 150 * shade, 235 * shade];
      px.forEach((v, c) => (raw[(y * width + x) * 3 + c] = Math.round(v)));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/**
 * A grey photo with damage the automatic pass leaves (too wide for a scratch or a speck), for the heal brush:
 * a smooth gradient with grain, a bright 6-px bar and a dark 9-px spot (a 7-px one is taken as dust by the automatic pass).
 */
export const DAMAGED = { width: 480, height: 360, bar: { x: 240, y: 100, w: 6, h: 80 }, spot: { x: 120, y: 240, d: 9 } } as const;

export function damagedPhoto(): Promise<Buffer> {
  const { width: W, height: H, bar, spot } = DAMAGED;
  const raw = Buffer.alloc(W * H);
  let seed = 7;
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let v = 90 + (x / W) * 80 + (y / H) * 30 + (rnd() + rnd() + rnd() - 1.5) * 4;
      if (x >= bar.x && x < bar.x + bar.w && y >= bar.y && y < bar.y + bar.h) v += 55;
      if ((x - spot.x) ** 2 + (y - spot.y) ** 2 <= (spot.d / 2) ** 2) v -= 60;
      raw[y * W + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  return sharp(raw, { raw: { width: W, height: H, channels: 1 } }).png().toBuffer();
}

/**
 * How much DAMAGED's bar and spot stand out from the ground beside them (grey levels; 0 = healed), read from
 * one grey channel of a picture of DAMAGED's size.
 */
export function damageContrast(grey: Uint8Array | Buffer): { bar: number; spot: number } {
  const { width: W, bar, spot } = DAMAGED;
  let sum = 0, rows = 0;
  for (let y = bar.y + 5; y < bar.y + bar.h - 5; y++, rows++) {
    let line = 0;
    for (let x = bar.x; x < bar.x + bar.w; x++) line += grey[y * W + x]!;
    sum += line / bar.w - (grey[y * W + bar.x - 6]! + grey[y * W + bar.x + bar.w + 5]!) / 2;
  }
  const at = (dx: number) => grey[spot.y * W + spot.x + dx]!;
  return { bar: sum / rows, spot: at(0) - (at(-8) + at(8)) / 2 };
}

// ——— Owner secrets, as the browser keeps them (src/lib/owner-secrets.ts) ———

const ownerSecrets = new Map<string, string>();

/**
 * Keeps the owner secret of the item an answer made (process-image, process-video: `transformationId`), or that
 * `queueVideo` returned (`id`), as the browser does.
 */
export function keepOwner<T extends { transformationId?: unknown; id?: unknown; ownerSecret?: unknown }>(made: T): T {
  const id = made.transformationId ?? made.id;
  if (typeof id === 'string' && typeof made.ownerSecret === 'string') ownerSecrets.set(id, made.ownerSecret);
  return made;
}

/** The header that proves ownership of an item this test made (none for one it did not make). */
export function owner(id: string): Record<string, string> {
  const secret = ownerSecrets.get(id);
  return secret ? { [OWNER_SECRET_HEADER]: secret } : {};
}

/** A checkout item as the cart sends it: the id, with the owner secret when this test made the item. */
export function cartItem(id: string): { transformationId: string; ownerSecret?: string } {
  const secret = ownerSecrets.get(id);
  return { transformationId: id, ...(secret && { ownerSecret: secret }) };
}
