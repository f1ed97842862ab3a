import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { IMAGE_MODEL_IDS, type ImageModel, type Tone } from '../../src/lib/tool/image-schema';
import type { AutomaticPass, ColourSource } from './pipeline';

// A kept automatic pass (pipeline.ts), so a heal or hint re-render does not restore the photo again: a small
// JSON header and the planes, deflated. L* is kept in steps of 1/600 (16 bits; far finer than the 8-bit output),
// the chroma as it is (it is small).

const MAGIC = 'LRP1';
/** Bumped whenever the engine's automatic pass changes what it produces: an older file is ignored. */
export const PASS_VERSION = 14;
const L_STEPS = 600;

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

type Header = {
  version: number;
  model: ImageModel;
  width: number;
  height: number;
  tone: Tone;
  method: string;
  colourSource: ColourSource;
  chromaWidth: number;
  chromaHeight: number;
};

/** The pass as bytes to store. */
export async function encodePass(pass: AutomaticPass): Promise<Buffer> {
  const header: Header = {
    version: PASS_VERSION,
    model: pass.model,
    width: pass.width,
    height: pass.height,
    tone: pass.tone,
    method: pass.method,
    colourSource: pass.colourSource,
    chromaWidth: pass.chroma.width,
    chromaHeight: pass.chroma.height,
  };
  const L = new Uint16Array(pass.L.length);
  for (let i = 0; i < L.length; i++) L[i] = Math.round(Math.min(100, Math.max(0, pass.L[i]!)) * L_STEPS);
  const planes = Buffer.concat([Buffer.from(L.buffer), Buffer.from(pass.chroma.a.buffer, pass.chroma.a.byteOffset, pass.chroma.a.byteLength), Buffer.from(pass.chroma.b.buffer, pass.chroma.b.byteOffset, pass.chroma.b.byteLength)]);
  const json = Buffer.from(JSON.stringify(header));
  const lead = Buffer.alloc(8);
  lead.write(MAGIC, 0, 'latin1');
  lead.writeUInt32LE(json.length, 4);
  return Buffer.concat([lead, json, await deflate(planes, { level: 1 })]);
}

/** The pass kept in `bytes`, or null when they are not a pass of this engine version for `model`. */
export async function decodePass(bytes: Buffer, model: ImageModel): Promise<AutomaticPass | null> {
  if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC) return null;
  const length = bytes.readUInt32LE(4);
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', 8, 8 + length)) as Header;
  } catch {
    return null;
  }
  if (header.version !== PASS_VERSION || header.model !== model || !IMAGE_MODEL_IDS.includes(header.model)) return null;
  const n = header.width * header.height;
  const cn = header.chromaWidth * header.chromaHeight;
  let planes: Buffer;
  try {
    planes = await inflate(bytes.subarray(8 + length));
  } catch {
    return null;
  }
  if (planes.length !== 2 * n + 8 * cn) return null;
  // Copied out so the typed arrays are aligned whatever the buffer's offset.
  const L16 = new Uint16Array(planes.buffer.slice(planes.byteOffset, planes.byteOffset + 2 * n));
  const L = new Float32Array(n);
  for (let i = 0; i < n; i++) L[i] = L16[i]! / L_STEPS;
  const a = new Float32Array(planes.buffer.slice(planes.byteOffset + 2 * n, planes.byteOffset + 2 * n + 4 * cn));
  const b = new Float32Array(planes.buffer.slice(planes.byteOffset + 2 * n + 4 * cn, planes.byteOffset + 2 * n + 8 * cn));
  return {
    model: header.model,
    width: header.width,
    height: header.height,
    tone: header.tone,
    method: header.method,
    colourSource: header.colourSource,
    L,
    chroma: { a, b, width: header.chromaWidth, height: header.chromaHeight },
  };
}
