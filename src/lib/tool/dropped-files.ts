/**
 * The files of a drop, folders walked (`DataTransferItem.webkitGetAsEntry`, every browser's way to read a dropped
 * folder): each file inside, at any depth, in the order the browser lists them. The entries must be taken from the
 * items during the drop event itself (the list is emptied after it), so `droppedEntries` is called there and
 * `filesOf` may finish later. Browsers without entries give the plain file list.
 */
type Entry = FileSystemEntry;

export function droppedEntries(data: DataTransfer): Entry[] | null {
  const items = Array.from(data.items ?? []);
  if (!items.length || typeof items[0]!.webkitGetAsEntry !== 'function') return null;
  return items.map((item) => item.webkitGetAsEntry()).filter((e): e is Entry => !!e);
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** A folder's entries: `readEntries` hands them out in pieces (100 at a time in Chrome) until it returns none. */
async function children(dir: FileSystemDirectoryEntry): Promise<Entry[]> {
  const reader = dir.createReader();
  const all: Entry[] = [];
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

/** Every file under the entries (a limit keeps a dropped disk from being read whole). */
export async function filesOf(entries: readonly Entry[], limit = 2000): Promise<File[]> {
  const files: File[] = [];
  const queue = [...entries];
  while (queue.length && files.length < limit) {
    const entry = queue.shift()!;
    if (entry.isFile) files.push(await fileOf(entry as FileSystemFileEntry).catch(() => null as never));
    else if (entry.isDirectory) queue.push(...(await children(entry as FileSystemDirectoryEntry).catch(() => [])));
  }
  return files.filter(Boolean).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
}
