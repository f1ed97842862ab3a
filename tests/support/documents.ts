import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

/**
 * Small real documents for the chat's document reading: a PDF written object by object (one page per
 * string, Helvetica text; `encrypted` adds a standard security handler whose user password is not empty,
 * as a password-protected export has), a .docx zipped from its XML parts, and an .xlsx written by exceljs.
 */
export function makePdf(pages: string[], options: { encrypted?: boolean } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) && objects.length;
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in once the pages are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const text of pages) {
    const lines = text.split('\n').map((l, i) => `${i === 0 ? '' : '0 -16 Td '}(${l.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj`);
    const stream = `BT /F1 12 Tf 72 720 Td ${lines.join(' ')} ET`;
    const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const encrypt = options.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> /P -44 >>`)
    : null;

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encrypt ? ` /Encrypt ${encrypt} 0 R /ID [<${'ab'.repeat(16)}> <${'ab'.repeat(16)}>]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function makeDocx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs
      .map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`)
      .join('')}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

export async function makeXlsx(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
} as const;

// ---------------------------------------------------------------------------------------------------------
// Crafted files for the abuse corpus and the hardening bench: each built here, byte by byte, in a few ms.

/**
 * Raw deflate data that inflates to `chunk` repeated `times` times, built without inflating it: one block of
 * `chunk` compressed on its own and flushed to a byte boundary (a full flush, so it refers to nothing before
 * it), repeated, then an empty final block. A 1 MB run of zeros compresses to about 1 KB.
 */
export function repeatedDeflate(chunk: Buffer, times: number): Buffer {
  const block = deflateRawSync(chunk, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: times }, () => block), Buffer.from([0x03, 0x00])]);
}

/** The same as zlib data (a PDF's FlateDecode): header, the raw blocks, and the Adler-32 of what they inflate to. */
export function repeatedZlib(chunk: Buffer, times: number): Buffer {
  let a = 1;
  let b = 0;
  for (let t = 0; t < times; t++) {
    for (let i = 0; i < chunk.length; i++) {
      a = (a + chunk[i]!) % 65521;
      b = (b + a) % 65521;
    }
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), repeatedDeflate(chunk, times), adler]);
}

export interface ZipEntryBytes {
  name: string;
  /** What the entry holds; deflated here unless `deflated` is given. */
  content?: Buffer;
  /** The entry's compressed data as it is stored (with `declaredSize` and `crc`). */
  deflated?: Buffer;
  /** The uncompressed size both headers declare (default: the content's). */
  declaredSize?: number;
  crc?: number;
  /** false: written as a local entry but left out of the central directory. */
  listed?: boolean;
}

/**
 * A ZIP written record by record (local entries, central directory, end record), so a test can make it lie:
 * sizes that are not what an entry inflates to, or an end record that counts fewer entries than the
 * directory holds (`declaredCount`).
 */
export function zipOf(entries: ZipEntryBytes[], options: { declaredCount?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = e.deflated ?? deflateRawSync(e.content ?? Buffer.alloc(0));
    const size = e.declaredSize ?? e.content?.length ?? 0;
    const crc = e.crc ?? crc32(e.content ?? Buffer.alloc(0));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    if (e.listed !== false) central.push(record, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const listed = entries.filter((e) => e.listed !== false).length;
  end.writeUInt16LE(options.declaredCount ?? listed, 8);
  end.writeUInt16LE(options.declaredCount ?? listed, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a real .docx (for archives that lie about some of them). */
export const docxParts = async (paragraphs: string[]) => {
  const zip = await JSZip.loadAsync(await makeDocx(paragraphs));
  const files = Object.values(zip.files).filter((f) => !f.dir);
  return Promise.all(files.map(async (f) => ({ name: f.name, content: await f.async('nodebuffer') })));
};

/**
 * A .docx whose document part declares a few hundred bytes and inflates to `inflatedMb` MB of zeros (each MB
 * about 1 KB compressed): 1,000 MB in a 1 MB file, as in the review.
 */
export async function makeDocxBomb(inflatedMb = 1_000): Promise<Buffer> {
  const parts = (await docxParts(['A bomb'])).filter((p) => p.name !== 'word/document.xml');
  const declared = (await docxParts(['A bomb'])).find((p) => p.name === 'word/document.xml')!.content;
  return zipOf([...parts, { name: 'word/document.xml', deflated: repeatedDeflate(Buffer.alloc(1024 * 1024), inflatedMb), declaredSize: declared.length, crc: crc32(declared) }]);
}

/** A real .docx whose end record counts one entry fewer than its directory holds; the hidden last one inflates to `hiddenMb` MB. */
export async function makeDocxHidingAnEntry(hiddenMb = 200): Promise<Buffer> {
  const parts = await docxParts(['What the end record shows']);
  return zipOf([...parts, { name: 'word/media/hidden.bin', deflated: repeatedDeflate(Buffer.alloc(1024 * 1024), hiddenMb), declaredSize: 1024, crc: 0 }], {
    declaredCount: parts.length,
  });
}

/**
 * A legacy Word 97 file (.doc) as word-extractor reads it: an OLE compound file (512-byte sectors: the
 * allocation table, the directory, then the `WordDocument` and `1Table` streams of 4 KB each) whose FIB points
 * at one piece of 8-bit text.
 */
export function makeDoc(text: string): Buffer {
  const body = Buffer.from(`${text}\r`, 'latin1');
  const wordDocument = Buffer.alloc(4096);
  wordDocument.writeUInt16LE(0xa5ec, 0); // the FIB's magic
  wordDocument.writeUInt16LE(0x0200, 0x0a); // the table stream is 1Table
  wordDocument.writeUInt32LE(0x200, 0x18); // fcMin
  wordDocument.writeUInt32LE(body.length, 0x4c); // ccpText
  wordDocument.writeUInt32LE(0, 0x1a2); // fcClx: the piece table at the start of 1Table
  body.copy(wordDocument, 0x200);
  const table = Buffer.alloc(4096);
  table.writeUInt8(2, 0); // a Pcdt
  table.writeUInt32LE(16, 1); // one piece: two CPs and one 8-byte descriptor
  table.writeUInt32LE(0, 5);
  table.writeUInt32LE(body.length, 9);
  table.writeUInt32LE(0x40000000 | (0x200 * 2), 15); // 8-bit text at 0x200 of WordDocument
  return compoundFile([
    { name: 'WordDocument', data: wordDocument },
    { name: '1Table', data: table },
  ]);
}

/** An OLE compound file holding `streams` (each at least 4 KB, so none goes to the mini stream). */
function compoundFile(streams: Array<{ name: string; data: Buffer }>): Buffer {
  const SECTOR = 512;
  const sectorsOf = (b: Buffer) => Math.ceil(b.length / SECTOR);
  const fat = new Int32Array(SECTOR / 4).fill(-1);
  fat[0] = -3; // the allocation table's own sector
  fat[1] = -2; // the directory: one sector
  let next = 2;
  const starts = streams.map((s) => {
    const start = next;
    const n = sectorsOf(s.data);
    for (let i = 0; i < n; i++) fat[start + i] = i === n - 1 ? -2 : start + i + 1;
    next += n;
    return start;
  });
  const header = Buffer.alloc(SECTOR);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeInt32LE(1, 44); // one allocation table sector
  header.writeInt32LE(1, 48); // the directory starts at sector 1
  header.writeInt32LE(4096, 56); // the mini stream cutoff
  header.writeInt32LE(-2, 60); // no mini table
  header.writeInt32LE(0, 64);
  header.writeInt32LE(-2, 68); // no master table sectors
  header.writeInt32LE(0, 72);
  for (let i = 0; i < 109; i++) header.writeInt32LE(i === 0 ? 0 : -1, 76 + i * 4);
  const directory = Buffer.alloc(SECTOR);
  const entry = (i: number, name: string, type: number, sibling: number, child: number, start: number, size: number) => {
    const at = i * 128;
    directory.write(name, at, 'utf16le');
    directory.writeUInt16LE((name.length + 1) * 2, at + 64);
    directory.writeInt8(type, at + 66);
    directory.writeInt8(1, at + 67);
    directory.writeInt32LE(-1, at + 68);
    directory.writeInt32LE(sibling, at + 72);
    directory.writeInt32LE(child, at + 76);
    directory.writeInt32LE(start, at + 116);
    directory.writeUInt32LE(size, at + 120);
  };
  entry(0, 'Root Entry', 5, -1, 1, -2, 0);
  streams.forEach((s, i) => entry(i + 1, s.name, 2, i + 1 < streams.length ? i + 2 : -1, -1, starts[i]!, s.data.length));
  for (let i = streams.length + 1; i < 4; i++) {
    directory.writeInt32LE(-1, i * 128 + 68);
    directory.writeInt32LE(-1, i * 128 + 72);
    directory.writeInt32LE(-1, i * 128 + 76);
  }
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc(sectorsOf(b) * SECTOR - b.length)]);
  return Buffer.concat([header, Buffer.from(fat.buffer), directory, ...streams.map((s) => pad(s.data))]);
}

/**
 * The review's 2 KB .doc: a compound file whose allocation table chains sector 1 → 2 → 1, where the mini table
 * starts. word-extractor 1.0.4 follows the chain until a sector points at itself, so it never stops.
 */
export function makeLoopingDoc(): Buffer {
  const file = Buffer.alloc(2048);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(file, 0);
  file.writeUInt16LE(0x3e, 24);
  file.writeUInt16LE(3, 26);
  file.writeUInt16LE(0xfffe, 28);
  file.writeUInt16LE(9, 30);
  file.writeUInt16LE(6, 32);
  file.writeInt32LE(1, 44);
  file.writeInt32LE(1, 48);
  file.writeInt32LE(4096, 56);
  file.writeInt32LE(1, 60); // the mini table starts at sector 1 …
  file.writeInt32LE(1, 64);
  file.writeInt32LE(-2, 68);
  for (let i = 0; i < 109; i++) file.writeInt32LE(i === 0 ? 0 : -1, 76 + i * 4);
  const fat = 512;
  for (let i = 0; i < 128; i++) file.writeInt32LE(-1, fat + i * 4);
  file.writeInt32LE(-3, fat);
  file.writeInt32LE(2, fat + 4); // … 1 → 2
  file.writeInt32LE(1, fat + 8); // … 2 → 1
  return file;
}

/** A one-page PDF whose content stream is FlateDecode `data` (zlib), as it is stored. */
export function makePdfWithStream(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  push('%PDF-1.4\n');
  const objects: Array<string | Buffer[]> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    [Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')],
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  objects.forEach((body, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    if (typeof body === 'string') push(body);
    else body.forEach(push);
    push('\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** The review's PDF whose one content stream inflates to `mb` MB of text-showing operators. */
export function makePdfWithHugeStream(mb = 100): Buffer {
  const line = 'BT /F1 12 Tf 72 720 Td (All work and no play) Tj ET\n';
  const chunk = Buffer.from(line.repeat(Math.floor((1024 * 1024) / line.length)), 'latin1');
  return makePdfWithStream(repeatedZlib(chunk, mb));
}
