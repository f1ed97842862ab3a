import { Buffer } from 'node:buffer';
import { documentFormat, type DocumentFormat } from '../../../src/lib/chat/attachments';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';

/**
 * Documents read into text on the server, so every model can use them: plain text as it is, PDF with
 * unpdf (PDF.js built for servers), Word .docx with mammoth, legacy .doc with word-extractor, Excel .xlsx
 * with exceljs (sheet by sheet, a row per line, cells separated by tabs). A file that cannot be read gets
 * a clear message and the request stops there: nothing is sent upstream, nothing is spent.
 */
export type ReadResult = { ok: true; text: string } | { ok: false; message: string };

export const DOCUMENT_ERRORS = {
  encrypted: (name: string) => `"${name}" is password-protected, so it cannot be read here. Remove the password (or export an unprotected copy) and attach it again.`,
  unreadable: (name: string, format: string) => `"${name}" could not be read as a ${format} file: it may be damaged. Please check the file and attach it again.`,
  empty: (name: string) => `"${name}" has no text to read (a scanned PDF holds only images). Please attach a file with text, or paste the text into the message.`,
  tooLargeInside: (name: string) => `"${name}" unpacks to more than ${MAX_INFLATED_BYTES / (1024 * 1024)} MB, more than the chat reads. Please attach a smaller file, or paste the part you need.`,
  unsupported: (name: string) => `"${name}" is not a file type the chat can read. Attach a PDF, Word (.docx, .doc), Excel (.xlsx), text, CSV or Markdown file, or a PNG/JPEG image.`,
} as const;

/** What a .docx/.xlsx (a ZIP) may unpack to: far above any real document of 4 MB, far below a ZIP bomb. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * The total uncompressed size a ZIP's central directory declares (null when it is not a ZIP, or uses ZIP64,
 * whose sizes a document of 4 MB never needs). Read before unzipping, so a bomb is refused unopened.
 */
export function zipInflatedSize(bytes: Buffer): number | null {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  for (let eocd = bytes.length - 22; eocd >= min; eocd--) {
    if (bytes.readUInt32LE(eocd) !== 0x06054b50) continue;
    const entries = bytes.readUInt16LE(eocd + 10);
    let at = bytes.readUInt32LE(eocd + 16);
    let total = 0;
    for (let i = 0; i < entries; i++) {
      if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return null;
      const size = bytes.readUInt32LE(at + 24);
      if (size === 0xffffffff) return null;
      total += size;
      at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    }
    return total;
  }
  return null;
}

const FORMAT_NAMES: Record<DocumentFormat, string> = { text: 'text', pdf: 'PDF', docx: 'Word', doc: 'Word 97–2003', xlsx: 'Excel' };

/** A section of text with where it came from, so a cut can say what was left out. */
interface Section {
  label: string;
  text: string;
}

/** Joins sections within `maxChars`, saying where the text was cut and what is missing. */
export function keepWithin(sections: Section[], maxChars: number, unit: string): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = 0; i < sections.length; i++) {
    const { text } = sections[i]!;
    if (used + text.length <= maxChars) {
      kept.push(text);
      used += text.length + 2;
      continue;
    }
    const room = Math.max(0, maxChars - used);
    if (room > 0) kept.push(text.slice(0, room));
    const left = sections.length - i;
    const where = sections.length > 1 ? ` in ${sections[i]!.label} of ${sections.length} ${unit}` : '';
    const rest = sections.length > 1 && left > 1 ? `; ${left - 1} more ${unit === 'pages' && left - 1 === 1 ? 'page' : unit} not included` : '';
    kept.push(`[… cut here${where}: the text is limited to ${maxChars.toLocaleString('en-US')} characters${rest}]`);
    return kept.join('\n\n');
  }
  return kept.join('\n\n');
}

const isPasswordError = (error: unknown) => {
  const e = error as { name?: string; message?: string } | null;
  return e?.name === 'PasswordException' || /password/i.test(e?.message ?? '');
};

async function readPdf(bytes: Uint8Array): Promise<Section[]> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text.map((t, i) => ({ label: `page ${i + 1}`, text: `[Page ${i + 1}]\n${t.trim()}` }));
  } finally {
    await (pdf as unknown as { destroy?: () => Promise<void> }).destroy?.().catch(() => {});
  }
}

async function readDocx(bytes: Buffer): Promise<Section[]> {
  const mammoth = await import('mammoth');
  const { value } = await (mammoth.default ?? mammoth).extractRawText({ buffer: bytes });
  return [{ label: 'the document', text: value.replace(/\n{3,}/g, '\n\n').trim() }];
}

async function readDoc(bytes: Buffer): Promise<Section[]> {
  const { default: WordExtractor } = await import('word-extractor');
  const doc = await new WordExtractor().extract(bytes);
  return [{ label: 'the document', text: doc.getBody().replace(/\r/g, '\n').replace(/\n{3,}/g, '\n\n').trim() }];
}

async function readXlsx(bytes: Buffer): Promise<Section[]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sections: Section[] = [];
  workbook.eachSheet((sheet) => {
    const rows: string[] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) cells.push(row.getCell(c).text.replace(/[\t\n]+/g, ' '));
      rows.push(cells.join('\t').trimEnd());
    });
    sections.push({ label: `sheet "${sheet.name}"`, text: `[Sheet "${sheet.name}"]\n${rows.join('\n')}` });
  });
  return sections;
}

/** Reads one attached file into text of at most `maxChars` characters (CHAT_LIMITS.maxDocumentChars). */
export async function readDocument(filename: string, mimeType: string, base64: string, maxChars: number = CHAT_LIMITS.maxDocumentChars): Promise<ReadResult> {
  const format = documentFormat(filename, mimeType);
  if (!format) return { ok: false, message: DOCUMENT_ERRORS.unsupported(filename) };
  const bytes = Buffer.from(base64, 'base64');
  if (format === 'docx' || format === 'xlsx') {
    const inflated = zipInflatedSize(bytes);
    if (inflated === null) return { ok: false, message: DOCUMENT_ERRORS.unreadable(filename, FORMAT_NAMES[format]) };
    if (inflated > MAX_INFLATED_BYTES) return { ok: false, message: DOCUMENT_ERRORS.tooLargeInside(filename) };
  }
  let sections: Section[];
  try {
    switch (format) {
      case 'text':
        sections = [{ label: 'the file', text: bytes.toString('utf8') }];
        break;
      case 'pdf':
        sections = await readPdf(new Uint8Array(bytes));
        break;
      case 'docx':
        sections = await readDocx(bytes);
        break;
      case 'doc':
        sections = await readDoc(bytes);
        break;
      case 'xlsx':
        sections = await readXlsx(bytes);
        break;
    }
  } catch (error) {
    if (isPasswordError(error)) return { ok: false, message: DOCUMENT_ERRORS.encrypted(filename) };
    return { ok: false, message: DOCUMENT_ERRORS.unreadable(filename, FORMAT_NAMES[format]) };
  }
  const plain = sections.map((s) => s.text.replace(/^\[(Page \d+|Sheet "[^"]*")\]\n?/, '')).join('').trim();
  if (!plain) return { ok: false, message: DOCUMENT_ERRORS.empty(filename) };
  return { ok: true, text: keepWithin(sections, maxChars, format === 'pdf' ? 'pages' : format === 'xlsx' ? 'sheets' : 'parts') };
}
