/**
 * Legacy Word files (.doc) are OLE compound files: a file system of 512- or 4096-byte sectors whose allocation
 * table chains each stream's sectors, and a directory that is a tree of entries. word-extractor follows every
 * chain until it reaches an end marker or a sector pointing at itself, and walks the directory tree without
 * remembering where it has been: a chain 1 → 2 → 1 makes it loop forever, growing an array without yielding,
 * and a directory whose entries point at each other makes it recurse without end or visit one entry an
 * exponential number of times. This check walks what word-extractor will walk, with a visited set, before it
 * sees the file: every chain it follows ends within the file's sector count without meeting a sector twice,
 * and every directory entry is reached at most once.
 */
const SIGNATURE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const HEADER_BYTES = 512;
const DIRECTORY_ENTRY_BYTES = 128;
/** In an allocation table, every value below 0 ends a chain (free, end of chain, table sectors). */
const END = -1;
const NO_ENTRY = -1;
const TYPE_STORAGE = 1;
const TYPE_STREAM = 2;
const TYPE_ROOT = 5;

export const looksLikeCompoundFile = (bytes: Uint8Array): boolean => bytes.length >= 8 && SIGNATURE.equals(Buffer.from(bytes.buffer, bytes.byteOffset, 8));

/**
 * The sectors of the chain starting at `start` in `table`, or null when the chain meets a sector twice or
 * leaves the table (or the `limit` sectors that exist).
 */
function chain(table: Int32Array, start: number, limit: number): number[] | null {
  const seen = new Uint8Array(table.length);
  const sectors: number[] = [];
  for (let id = start; id > END; id = table[id]!) {
    if (id >= table.length || id >= limit || seen[id]) return null;
    seen[id] = 1;
    sectors.push(id);
  }
  return sectors;
}

/** Whether word-extractor can read the compound file's structure without looping (see above). */
export function checkCompoundFile(bytes: Buffer): boolean {
  if (bytes.length < HEADER_BYTES || !looksLikeCompoundFile(bytes)) return false;
  const sectorShift = bytes.readUInt16LE(30);
  if ((sectorShift !== 9 && sectorShift !== 12) || bytes.readUInt16LE(32) !== 6) return false;
  const sectorSize = 1 << sectorShift;
  // Sector n starts at (n + 1) × sectorSize: the header takes the first sector's room.
  const sectors = Math.ceil(bytes.length / sectorSize) - 1;
  const idsPerSector = sectorSize / 4;
  const sectorIds = (sector: number) => {
    const out = new Int32Array(idsPerSector);
    const start = (sector + 1) * sectorSize;
    for (let i = 0; i < idsPerSector && start + i * 4 + 4 <= bytes.length; i++) out[i] = bytes.readInt32LE(start + i * 4);
    return out;
  };
  const tableSectors = bytes.readInt32LE(44);
  const directoryStart = bytes.readInt32LE(48);
  const miniCutoff = bytes.readInt32LE(56);
  const miniTableStart = bytes.readInt32LE(60);
  const miniTableSectors = bytes.readInt32LE(64);
  const masterStart = bytes.readInt32LE(68);
  const masterSectors = bytes.readInt32LE(72);
  if (tableSectors < 1 || tableSectors > sectors || masterSectors < 0 || masterSectors > sectors || miniTableSectors < 0) return false;

  // Where the allocation table lies: 109 sector ids in the header, the rest in a chain of master sectors (each
  // ends with the next one's id).
  const tableAt: number[] = [];
  for (let i = 0; i < Math.min(109, tableSectors); i++) tableAt.push(bytes.readInt32LE(76 + i * 4));
  const seenMaster = new Set<number>();
  for (let next = masterStart; tableAt.length < tableSectors; ) {
    if (seenMaster.size >= masterSectors || next < 0 || next >= sectors || seenMaster.has(next)) return false;
    seenMaster.add(next);
    const ids = sectorIds(next);
    for (let i = 0; i < idsPerSector - 1 && tableAt.length < tableSectors; i++) tableAt.push(ids[i]!);
    next = ids[idsPerSector - 1]!;
  }
  if (tableAt.some((s) => s < 0 || s >= sectors)) return false;
  const table = new Int32Array(tableSectors * idsPerSector);
  tableAt.forEach((s, i) => table.set(sectorIds(s), i * idsPerSector));

  // The mini table (for streams shorter than the cutoff): word-extractor wants exactly its declared length.
  const miniAt = chain(table, miniTableStart, sectors);
  if (!miniAt || miniAt.length !== miniTableSectors) return false;
  const miniTable = new Int32Array(miniAt.length * idsPerSector);
  miniAt.forEach((s, i) => miniTable.set(sectorIds(s), i * idsPerSector));

  // The directory: its chain, then its tree, each entry reached once.
  const directoryAt = chain(table, directoryStart, sectors);
  if (!directoryAt || directoryAt.length === 0) return false;
  const count = (directoryAt.length * sectorSize) / DIRECTORY_ENTRY_BYTES;
  const entry = (id: number) => {
    const sector = directoryAt[Math.floor((id * DIRECTORY_ENTRY_BYTES) / sectorSize)]!;
    const at = (sector + 1) * sectorSize + ((id * DIRECTORY_ENTRY_BYTES) % sectorSize);
    if (at + DIRECTORY_ENTRY_BYTES > bytes.length) return null;
    return {
      type: bytes.readInt8(at + 66),
      left: bytes.readInt32LE(at + 68),
      right: bytes.readInt32LE(at + 72),
      child: bytes.readInt32LE(at + 76),
      start: bytes.readInt32LE(at + 116),
      size: bytes.readInt32LE(at + 120),
    };
  };
  let root = -1;
  for (let id = 0; id < count && root < 0; id++) if (entry(id)?.type === TYPE_ROOT) root = id;
  if (root < 0) return false;
  const rootEntry = entry(root)!;
  // The root's chain holds the mini stream.
  if (!chain(table, rootEntry.start, sectors)) return false;

  const reached = new Uint8Array(count);
  const storages = [root];
  while (storages.length > 0) {
    const storage = entry(storages.pop()!)!;
    // The storage's children: a binary tree hanging from `child` through `left` and `right`.
    const pending = storage.child === NO_ENTRY ? [] : [storage.child];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id < 0 || id >= count || id === root || reached[id]) return false;
      reached[id] = 1;
      const e = entry(id);
      if (!e) return false;
      if (e.left !== NO_ENTRY) pending.push(e.left);
      if (e.right !== NO_ENTRY) pending.push(e.right);
      if (e.type === TYPE_STORAGE) storages.push(id);
      // Each stream's chain, in the mini table or the main one as word-extractor picks it.
      if (e.type === TYPE_STREAM && !(e.size < miniCutoff ? chain(miniTable, e.start, miniTable.length) : chain(table, e.start, sectors))) return false;
    }
  }
  return true;
}
