import { createInflate } from 'node:zlib';

/**
 * A PDF's compressed streams checked by what they really unpack to, before PDF.js opens the file: PDF.js
 * decodes a page's whole content stream into memory before it reads the first operator (growing its buffer by
 * doubling), so a 300 KB PDF whose one stream inflates to 100 MB costs about 250 MB and seconds of work.
 * Every FlateDecode stream PDF.js may decode to read text (page contents, forms, fonts, object streams;
 * not images, which text extraction never decodes) is inflated here, counting the bytes and keeping none,
 * until the total passes the cap. A stream that is not plain zlib data (another filter first, or damaged) is
 * left to PDF.js: the sandbox's time and memory limits still hold for it.
 */
const STREAM = /(?<!end)stream\r?\n/g;
/** How far back from `stream` its dictionary may start (the `obj` keyword). */
const DICTIONARY_WINDOW = 4096;

/** The bytes `data` inflates to as zlib data, counted up to `cap` (`cap + 1` past it); null when it is not zlib data. */
function inflatedSize(data: Buffer, cap: number): Promise<number | null> {
  return new Promise((resolve) => {
    const inflate = createInflate();
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        inflate.destroy();
        resolve(cap + 1);
      }
    });
    inflate.once('end', () => resolve(size));
    inflate.once('error', () => resolve(size > 0 ? size : null));
    inflate.end(data);
  });
}

/** Whether the FlateDecode streams PDF.js may decode for text unpack to at most `maxInflatedBytes` in all. */
export async function pdfStreamsWithin(bytes: Buffer, maxInflatedBytes: number): Promise<boolean> {
  const text = bytes.toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM)) {
    const start = match.index + match[0].length;
    const before = text.slice(Math.max(0, match.index - DICTIONARY_WINDOW), match.index);
    const dictionary = before.slice(before.lastIndexOf('obj') + 1);
    if (!/\/FlateDecode\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const declared = /\/Length\s+(\d+)\s*(?:\/|>>)/.exec(dictionary);
    const endAt = text.indexOf('endstream', start);
    const end = declared && start + Number(declared[1]) <= bytes.length ? start + Number(declared[1]) : endAt < 0 ? bytes.length : endAt;
    const size = await inflatedSize(bytes.subarray(start, end), maxInflatedBytes - total);
    if (size === null) continue;
    total += size;
    if (total > maxInflatedBytes) return false;
  }
  return true;
}
