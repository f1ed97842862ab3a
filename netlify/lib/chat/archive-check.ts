import { crc32, inflateRawSync } from 'node:zlib';

/**
 * ZIP archives (.docx, .xlsx, and any attachment that starts with `PK`, whatever its name) checked by what they
 * really hold before a library opens them: JSZip (inside mammoth and exceljs) and yauzl (inside word-extractor)
 * trust the sizes an archive declares and inflate a whole entry before noticing it lied, so a 1 MB entry that
 * declares 2 KB can unpack to a gigabyte. Here the central directory is walked to its end, every entry counted
 * (the end record must agree), and each entry inflated with a cap on its real output: the size it declares.
 * Nothing is kept; the library then reads an archive whose every size is true and whose total is capped.
 */
export type ArchiveCheck = { ok: true; entries: number; inflatedBytes: number } | { ok: false; reason: 'damaged' | 'too-large' };

const END_RECORD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
/** ZIP64 marks a field it moved elsewhere with all ones: a 4 MB document never needs it. */
const ZIP64_16 = 0xffff;
const ZIP64_32 = 0xffffffff;

/** Whether the bytes start like a ZIP archive (a local entry, an empty archive's end record, a spanned marker). */
export const looksLikeZip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x50 && bytes[1] === 0x4b;

const damaged = { ok: false, reason: 'damaged' } as const;
const tooLarge = { ok: false, reason: 'too-large' } as const;

/** The end record: the last one whose comment runs exactly to the end of the file (-1 when none does). */
function findEndRecord(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === END_RECORD && at + 22 + bytes.readUInt16LE(at + 20) === bytes.length) return at;
  }
  return -1;
}

interface Entry {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const DATA_DESCRIPTOR = 0x08074b50;

/** The data descriptor after an entry's data (flag 8: sizes written after the data), with or without its signature. */
function descriptorLength(bytes: Buffer, entry: Entry, dataEnd: number): number {
  if (!(entry.flags & 8)) return 0;
  return dataEnd + 4 <= bytes.length && bytes.readUInt32LE(dataEnd) === DATA_DESCRIPTOR ? 16 : 12;
}

/**
 * Checks a ZIP archive: one disk, no ZIP64, the central directory contiguous and ending where the end record
 * starts, as many entries in it as the end record says, the entries one after another from the first byte to
 * the directory (nothing hidden between them), stored (0) or deflated (8), not encrypted; the sizes declared at most `maxInflatedBytes` in all;
 * and each entry, inflated with its declared size as the cap, giving exactly that many bytes with the declared
 * CRC. 'too-large' when the declared total passes the cap; 'damaged' for anything else.
 */
export function checkZipArchive(bytes: Buffer, maxInflatedBytes: number): ArchiveCheck {
  const end = findEndRecord(bytes);
  if (end < 0) return damaged;
  const disk = bytes.readUInt16LE(end + 4);
  const directoryDisk = bytes.readUInt16LE(end + 6);
  const onThisDisk = bytes.readUInt16LE(end + 8);
  const declaredCount = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryStart = bytes.readUInt32LE(end + 16);
  if (disk !== 0 || directoryDisk !== 0 || onThisDisk !== declaredCount) return damaged;
  if (declaredCount === ZIP64_16 || directorySize === ZIP64_32 || directoryStart === ZIP64_32) return damaged;
  // Nothing between the directory and the end record (a ZIP64 locator, a second directory), nothing hidden.
  if (directoryStart + directorySize !== end) return damaged;

  const entries: Entry[] = [];
  let declaredTotal = 0;
  let at = directoryStart;
  while (at < end) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== CENTRAL_ENTRY) return damaged;
    const entry: Entry = {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      crc: bytes.readUInt32LE(at + 16),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === ZIP64_32 || entry.size === ZIP64_32 || entry.localOffset === ZIP64_32) return damaged;
    entries.push(entry);
    declaredTotal += entry.size;
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  // The walk ends exactly at the end record, having met as many entries as it declares.
  if (at !== end || entries.length !== declaredCount) return damaged;
  if (declaredTotal > maxInflatedBytes) return tooLarge;

  // The entries' data, in file order, must follow one another from the first byte to the directory: no entry
  // hidden between them for a streaming reader (exceljs reads local entries one after the other), none shared.
  let expected = 0;
  for (const entry of entries.toSorted((a, b) => a.localOffset - b.localOffset)) {
    if (entry.flags & 1) return damaged; // ZIP encryption: Office never writes it (its encrypted files are not ZIPs)
    const local = entry.localOffset;
    if (local !== expected || local + 30 > directoryStart || bytes.readUInt32LE(local) !== LOCAL_ENTRY) return damaged;
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const dataEnd = dataStart + entry.compressedSize;
    expected = dataEnd + descriptorLength(bytes, entry, dataEnd);
    if (expected > directoryStart) return damaged;
    const data = bytes.subarray(dataStart, dataEnd);
    let out: Buffer;
    if (entry.method === 0) {
      out = data;
    } else if (entry.method === 8) {
      try {
        // The cap is the size it declares: an entry that holds more stops here, after that many bytes.
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
      } catch {
        return damaged;
      }
    } else {
      return damaged;
    }
    if (out.length !== entry.size || crc32(out) !== entry.crc) return damaged;
  }
  if (expected !== directoryStart) return damaged;
  return { ok: true, entries: entries.length, inflatedBytes: declaredTotal };
}
