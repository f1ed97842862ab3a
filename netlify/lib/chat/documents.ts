import { Readable } from 'node:stream';
import { documentFormat, type DocumentFormat } from '../../../src/lib/chat/attachments';
import { DOCUMENT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_LIMITS, DOCUMENT_LIMITS } from '../../../src/lib/chat/request-limits';
import { checkZipArchive, looksLikeZip } from './archive-check';
import { checkCompoundFile, looksLikeCompoundFile } from './compound-file-check';
import { pdfStreamsWithin } from './pdf-stream-check';

/**
 * Documents read into text, so every model can use them: plain text as it is, PDF with unpdf (PDF.js built
 * for servers) page by page, Word .docx with mammoth, legacy .doc with word-extractor, Excel .xlsx with exceljs's
 * streaming reader (sheet by sheet, a row per line, cells separated by tabs). PDFs and workbooks are read only
 * as far as the character cap. A file that cannot be read gets a clear message
 * and the request stops there: nothing is sent upstream, nothing is spent.
 *
 * This runs inside the document sandbox (document-sandbox.ts: a worker thread with a time and memory limit);
 * before any library sees a file, what it holds is checked: any ZIP by its real inflated sizes
 * (archive-check.ts), a .doc's sector chains and directory (compound-file-check.ts).
 */
export type ReadResult = { ok: true; text: string } | { ok: false; message: string };

const FORMAT_NAMES: Record<DocumentFormat, string> = { text: 'text', pdf: 'PDF', docx: 'Word', doc: 'Word 97–2003', xlsx: 'Excel' };
/** How a message names the file's format ("Word", "PDF" …); "document" for a file the chat does not read. */
export const formatName = (filename: string, mimeType: string): string => {
  const format = documentFormat(filename, mimeType);
  return format ? FORMAT_NAMES[format] : 'document';
};
const UNITS: Record<DocumentFormat, string> = { text: 'parts', pdf: 'pages', docx: 'parts', doc: 'parts', xlsx: 'sheets' };

/** A section of text with where it came from, so a cut can say what was left out. */
interface Section {
  label: string;
  text: string;
}

/** What a reader got: its sections, out of `total` in the document (more when it stopped early). */
interface Sections {
  sections: Section[];
  total: number;
  /** Set when the reader stopped at its own limit (PDF pages) though the text still had room. */
  stoppedAt?: string;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Joins sections within `maxChars`, saying where the text was cut and what is missing: of `total` sections in
 * the document (more than were read, when a reader stopped early), and why (the character cap, or the
 * reader's own limit `stoppedAt`).
 */
export function keepWithin(sections: Section[], maxChars: number, unit: string, total = sections.length, stoppedAt?: string): string {
  const kept: string[] = [];
  let used = 0;
  const more = (n: number) => `${count(n)} more ${n === 1 ? unit.replace(/s$/, '') : unit} not included`;
  for (let i = 0; i < sections.length; i++) {
    const { text } = sections[i]!;
    if (used + text.length <= maxChars) {
      kept.push(text);
      used += text.length + 2;
      continue;
    }
    const room = Math.max(0, maxChars - used);
    if (room > 0) kept.push(text.slice(0, room));
    const where = total > 1 ? ` in ${sections[i]!.label} of ${count(total)} ${unit}` : '';
    const rest = total > 1 && total - i > 1 ? `; ${more(total - i - 1)}` : '';
    kept.push(`[… cut here${where}: the text is limited to ${count(maxChars)} characters${rest}]`);
    return kept.join('\n\n');
  }
  if (stoppedAt && total > sections.length) {
    kept.push(`[… cut after ${sections.at(-1)?.label ?? 'the start'} of ${count(total)} ${unit}: ${stoppedAt}; ${more(total - sections.length)}]`);
  }
  return kept.join('\n\n');
}

const isPasswordError = (error: unknown) => {
  const e = error as { name?: string; message?: string } | null;
  return e?.name === 'PasswordException' || /password/i.test(e?.message ?? '');
};

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof import('unpdf')['getDocumentProxy']>>['getPage']>>;

/**
 * One page's text, streamed: reading stops (and PDF.js stops parsing the page) once `room` characters are
 * in hand, so a page whose content stream unpacks to 100 MB costs what its first characters cost.
 */
async function pageText(page: PdfPage, room: number): Promise<string> {
  const reader = page.streamTextContent().getReader() as ReadableStreamDefaultReader<{ items: Array<{ str?: string; hasEOL?: boolean }> }>;
  let text = '';
  try {
    while (text.length <= room) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const item of value.items) if (typeof item.str === 'string') text += item.str + (item.hasEOL ? '\n' : '');
    }
  } finally {
    // PDF.js wants a reason; cancelling stops the page's parsing.
    await reader.cancel(new Error('enough text')).catch(() => {});
  }
  return text;
}

/** Page by page, up to DOCUMENT_LIMITS.maxPdfPages and until the text passes `maxChars`. */
async function readPdf(bytes: Uint8Array, maxChars: number): Promise<Sections> {
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  try {
    const sections: Section[] = [];
    let chars = 0;
    const last = Math.min(pdf.numPages, DOCUMENT_LIMITS.maxPdfPages);
    for (let n = 1; n <= last && chars <= maxChars; n++) {
      const page = await pdf.getPage(n);
      const text = `[Page ${n}]\n${(await pageText(page, maxChars - chars)).trim()}`;
      page.cleanup();
      sections.push({ label: `page ${n}`, text });
      chars += text.length + 2;
    }
    return { sections, total: pdf.numPages, stoppedAt: `the chat reads at most ${count(DOCUMENT_LIMITS.maxPdfPages)} pages of a PDF` };
  } finally {
    await (pdf as unknown as { destroy?: () => Promise<void> }).destroy?.().catch(() => {});
  }
}

async function readDocx(bytes: Buffer): Promise<Sections> {
  const mammoth = await import('mammoth');
  const { value } = await (mammoth.default ?? mammoth).extractRawText({ buffer: bytes });
  return { sections: [{ label: 'the document', text: value.replace(/\n{3,}/g, '\n\n').trim() }], total: 1 };
}

async function readDoc(bytes: Buffer): Promise<Sections> {
  const { default: WordExtractor } = await import('word-extractor');
  const doc = await new WordExtractor().extract(bytes);
  return { sections: [{ label: 'the document', text: doc.getBody().replace(/\r/g, '\n').replace(/\n{3,}/g, '\n\n').trim() }], total: 1 };
}

interface SheetRow {
  cellCount: number;
  getCell(column: number): { text: string };
}
interface StreamedSheet extends AsyncIterable<SheetRow> {
  name: string;
}

/**
 * Sheet by sheet, row by row from exceljs's streaming reader, until the text passes `maxChars`: a 4 MB
 * workbook holds about 600,000 cells, which exceljs's whole-workbook reader keeps as objects (about 900 MB).
 */
async function readXlsx(bytes: Buffer, maxChars: number): Promise<Sections> {
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sections: Section[] = [];
  let chars = 0;
  for await (const sheet of reader as unknown as AsyncIterable<StreamedSheet>) {
    const rows: string[] = [];
    for await (const row of sheet) {
      const cells: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) cells.push(row.getCell(c).text.replace(/[\t\n]+/g, ' '));
      const line = cells.join('\t').trimEnd();
      rows.push(line);
      chars += line.length + 1;
      if (chars > maxChars) break;
    }
    sections.push({ label: `sheet "${sheet.name}"`, text: `[Sheet "${sheet.name}"]\n${rows.join('\n')}` });
    if (chars > maxChars) break;
  }
  const listed = (reader as unknown as { model?: { sheets?: unknown[] } }).model?.sheets?.length ?? 0;
  return { sections, total: Math.max(listed, sections.length) };
}

/**
 * Why a file is refused before any reader opens it, or null: any ZIP (whatever its name) and a PDF's streams
 * by what they really unpack to, a .docx/.xlsx that is no ZIP, a .doc whose structure word-extractor could
 * not walk safely.
 */
async function refusedUnopened(filename: string, format: DocumentFormat, bytes: Buffer): Promise<ReadResult | null> {
  const unreadable = { ok: false, message: DOCUMENT_ERRORS.unreadable(filename, FORMAT_NAMES[format]) } as const;
  const tooLarge = { ok: false, message: DOCUMENT_ERRORS.tooLargeInside(filename) } as const;
  if (looksLikeZip(bytes)) {
    const archive = checkZipArchive(bytes, DOCUMENT_LIMITS.maxInflatedBytes);
    if (!archive.ok) return archive.reason === 'too-large' ? tooLarge : unreadable;
    return null;
  }
  if (format === 'pdf' && !(await pdfStreamsWithin(bytes, DOCUMENT_LIMITS.maxInflatedBytes))) return tooLarge;
  if (format === 'docx' || format === 'xlsx') return unreadable;
  // word-extractor reads compound files and ZIPs (a .docx named .doc); anything else it refuses at once.
  if (format === 'doc' && (!looksLikeCompoundFile(bytes) || !checkCompoundFile(bytes))) return unreadable;
  return null;
}

/** Reads one attached file into text of at most `maxChars` characters (CHAT_LIMITS.maxDocumentChars). */
export async function readDocument(filename: string, mimeType: string, bytes: Buffer, maxChars: number = CHAT_LIMITS.maxDocumentChars): Promise<ReadResult> {
  const format = documentFormat(filename, mimeType);
  if (!format) return { ok: false, message: DOCUMENT_ERRORS.unsupported(filename) };
  const refused = await refusedUnopened(filename, format, bytes);
  if (refused) return refused;
  let read: Sections;
  try {
    switch (format) {
      case 'text':
        read = { sections: [{ label: 'the file', text: bytes.toString('utf8') }], total: 1 };
        break;
      case 'pdf':
        read = await readPdf(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), maxChars);
        break;
      case 'docx':
        read = await readDocx(bytes);
        break;
      case 'doc':
        read = await readDoc(bytes);
        break;
      case 'xlsx':
        read = await readXlsx(bytes, maxChars);
        break;
    }
  } catch (error) {
    if (isPasswordError(error)) return { ok: false, message: DOCUMENT_ERRORS.encrypted(filename) };
    return { ok: false, message: DOCUMENT_ERRORS.unreadable(filename, FORMAT_NAMES[format]) };
  }
  const plain = read.sections.map((s) => s.text.replace(/^\[(Page \d+|Sheet "[^"]*")\]\n?/, '')).join('').trim();
  if (!plain) return { ok: false, message: DOCUMENT_ERRORS.empty(filename) };
  return { ok: true, text: keepWithin(read.sections, maxChars, UNITS[format], read.total, read.stoppedAt) };
}
