import { makeZip, predictLength } from 'client-zip';
import { ZIP_PART_MAX_BYTES } from '../../../src/lib/tool/batch';
import { getStorage } from '../storage';

/**
 * "Download all": the clean files a package took from a batch, as a ZIP streamed while it is written (client-zip, a
 * maintained streaming ZIP writer: stored entries, since JPEGs do not compress). One file is read from storage at a
 * time, so memory stays bounded whatever the count. Netlify streams at most 20 MB from a function and runs it at most
 * 60 s, so a batch larger than ZIP_PART_MAX_BYTES is cut into parts, each its own ZIP (`part=1…n`), by the results'
 * sizes recorded when they were made; the names are decided over the whole batch, so parts never collide. (Building
 * one ZIP in a background function into storage instead would need a bucket that takes files far beyond the 15 MB
 * upload limit, and Supabase's own upload limit is 50 MB on its free plan.)
 */
export interface ZipEntry {
  transformationId: string;
  /** The name the buyer's file had. */
  name: string;
  resultPath: string;
  /** The clean file's size when it was made (a heal may change it a little: the parts keep 2 MB of room). */
  bytes: number | null;
  createdAt: Date;
}

/** A size assumed for a result whose size was not recorded (an older row): large, so a part never overflows. */
const UNKNOWN_BYTES = 4 * 1024 * 1024;

/** The original's name as a safe file name: no folders, no characters a file system refuses; the result is a JPEG. */
export function cleanName(original: string): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const printable = [...stem].map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? '_' : c)).join('');
  const safe = printable.replace(/[<>:"|?*]+/g, '_').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 120);
  return safe || 'photo';
}

/** Each entry's name in the ZIP: its original name as a .jpg, a repeated one numbered ("photo (2).jpg"), case-insensitively. */
export function zipNames(entries: readonly Pick<ZipEntry, 'name'>[]): string[] {
  const used = new Set<string>();
  return entries.map(({ name }) => {
    const stem = cleanName(name);
    let candidate = `${stem}.jpg`;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n}).jpg`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

export interface ZipPartPlan {
  part: number;
  entries: (ZipEntry & { zipName: string })[];
  bytes: number;
}

/** The parts of the batch's ZIP, in the batch's order: as many entries in each as fit under `maxBytes`. */
export function planParts(entries: readonly ZipEntry[], maxBytes = ZIP_PART_MAX_BYTES): ZipPartPlan[] {
  const names = zipNames(entries);
  const parts: ZipPartPlan[] = [];
  let current: ZipPartPlan | null = null;
  entries.forEach((entry, i) => {
    const zipName = names[i]!;
    const size = Number(predictLength([{ name: zipName, size: entry.bytes ?? UNKNOWN_BYTES }]));
    if (!current || (current.entries.length > 0 && current.bytes + size > maxBytes)) {
      current = { part: parts.length + 1, entries: [], bytes: 22 };
      parts.push(current);
    }
    current.entries.push({ ...entry, zipName });
    current.bytes += size - 22;
  });
  return parts;
}

/** One part as a stream: each file read from storage when the writer reaches it. */
export function zipStream(plan: ZipPartPlan): ReadableStream<Uint8Array> {
  const storage = getStorage();
  async function* files() {
    for (const entry of plan.entries) {
      const bytes = await storage.get(entry.resultPath);
      if (!bytes) throw new Error(`a result is missing from storage: ${entry.transformationId}`);
      yield { name: entry.zipName, input: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), lastModified: entry.createdAt };
    }
  }
  return makeZip(files());
}
