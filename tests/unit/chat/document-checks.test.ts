import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { checkZipArchive, looksLikeZip } from '../../../netlify/lib/chat/archive-check';
import { checkCompoundFile } from '../../../netlify/lib/chat/compound-file-check';
import { keepWithin } from '../../../netlify/lib/chat/documents';
import { makeDoc, makeDocx, makeDocxBomb, makeDocxHidingAnEntry, makeLoopingDoc, makeXlsx, repeatedDeflate, zipOf } from '../../support/documents';

// What a file really holds, checked before a library opens it (netlify/lib/chat/archive-check.ts,
// compound-file-check.ts): each crafted file is built here, byte by byte.
const MB = 1024 * 1024;
const CAP = 64 * MB;

describe('ZIP archives by what they really hold', () => {
  it('passes real .docx and .xlsx files, and one whose entries carry data descriptors', async () => {
    for (const file of [await makeDocx(['Hello', 'world']), await makeXlsx({ A: [['a', 1]], B: [['b']] })]) {
      expect(checkZipArchive(file, CAP)).toMatchObject({ ok: true });
    }
    const streamed = await (await JSZip.loadAsync(await makeDocx(['Hello']))).generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', streamFiles: true });
    expect(checkZipArchive(streamed, CAP)).toMatchObject({ ok: true });
  });

  it('refuses an entry that inflates to more than it declares, after the declared bytes (a 1 MB file unpacking to 1 GB)', async () => {
    const bomb = await makeDocxBomb();
    expect(bomb.length).toBeLessThan(1.1 * MB);
    expect(checkZipArchive(bomb, CAP)).toEqual({ ok: false, reason: 'damaged' });
  });

  it('refuses an archive whose end record counts fewer entries than its directory holds', async () => {
    expect(checkZipArchive(await makeDocxHidingAnEntry(), CAP)).toEqual({ ok: false, reason: 'damaged' });
    // The same entries, honestly counted but lying about the size: still refused, for the size.
    const parts = [{ name: 'a.txt', content: Buffer.from('fine') }, { name: 'b.bin', deflated: repeatedDeflate(Buffer.alloc(MB), 3), declaredSize: 10, crc: 0 }];
    expect(checkZipArchive(zipOf(parts), CAP)).toEqual({ ok: false, reason: 'damaged' });
  });

  it('refuses declared sizes past the cap before inflating anything', () => {
    const honest = zipOf([{ name: 'big.bin', deflated: repeatedDeflate(Buffer.alloc(MB), 65), declaredSize: 65 * MB, crc: 0 }]);
    expect(checkZipArchive(honest, CAP)).toEqual({ ok: false, reason: 'too-large' });
  });

  it('refuses an end record that counts one entry fewer, though every entry is honest', () => {
    const entries = [{ name: 'a.txt', content: Buffer.from('first') }, { name: 'b.txt', content: Buffer.from('second') }];
    expect(checkZipArchive(zipOf(entries), CAP)).toMatchObject({ ok: true, entries: 2 });
    expect(checkZipArchive(zipOf(entries, { declaredCount: 1 }), CAP)).toEqual({ ok: false, reason: 'damaged' });
  });

  it('refuses a local entry no directory lists (a streaming reader would inflate it), and a second archive glued on', () => {
    const a = { name: 'a.txt', content: Buffer.from('first') };
    const b = { name: 'b.txt', content: Buffer.from('second') };
    expect(checkZipArchive(zipOf([a, { name: 'hidden.bin', deflated: repeatedDeflate(Buffer.alloc(MB), 200), declaredSize: 10, listed: false }, b]), CAP)).toEqual({ ok: false, reason: 'damaged' });
    expect(checkZipArchive(zipOf([a, { ...b, listed: false }]), CAP)).toEqual({ ok: false, reason: 'damaged' });
    expect(checkZipArchive(Buffer.concat([zipOf([a]), zipOf([b])]), CAP)).toEqual({ ok: false, reason: 'damaged' });
    const a0 = zipOf([a]);
    expect(checkZipArchive(Buffer.concat([a0, Buffer.from('trailing bytes')]), CAP)).toEqual({ ok: false, reason: 'damaged' });
    expect(checkZipArchive(Buffer.from('PK\u0003\u0004 nope'), CAP)).toEqual({ ok: false, reason: 'damaged' });
  });

  it('refuses ZIP64 markers and a wrong CRC', () => {
    const file = zipOf([{ name: 'a.txt', content: Buffer.from('hello') }]);
    const zip64 = Buffer.from(file);
    zip64.writeUInt16LE(0xffff, zip64.length - 12);
    expect(checkZipArchive(zip64, CAP)).toEqual({ ok: false, reason: 'damaged' });
    expect(checkZipArchive(zipOf([{ name: 'a.txt', content: Buffer.from('hello'), crc: 1 }]), CAP)).toEqual({ ok: false, reason: 'damaged' });
  });

  it('knows a ZIP by its first bytes, whatever its name', async () => {
    expect(looksLikeZip(await makeDocxBomb(1))).toBe(true);
    expect(looksLikeZip(Buffer.from('%PDF-1.7'))).toBe(false);
  });
});

describe('legacy Word files (OLE compound files) walked before word-extractor', () => {
  it('passes a real Word 97 file', () => {
    expect(checkCompoundFile(makeDoc('Hello from Word 97'))).toBe(true);
  });

  it('refuses the review’s 2 KB file whose sector chain loops 1 → 2 → 1', () => {
    const looping = makeLoopingDoc();
    expect(looping.length).toBe(2048);
    expect(checkCompoundFile(looping)).toBe(false);
  });

  /** makeDoc's file with one 32-bit value changed: the allocation table is sector 0 (at 512), the directory sector 1 (at 1024). */
  const patched = (at: number, value: number) => {
    const file = makeDoc('Hello');
    file.writeInt32LE(value, at);
    return file;
  };
  const FAT = 512;
  const DIRECTORY = 1024;

  it('refuses a stream chain that returns to a sector it has been through', () => {
    // WordDocument takes sectors 2..9: make 9 point back to 4.
    expect(checkCompoundFile(patched(FAT + 9 * 4, 4))).toBe(false);
    // … or that leaves the file.
    expect(checkCompoundFile(patched(FAT + 9 * 4, 5000))).toBe(false);
  });

  it('refuses a directory whose entries point at each other or back at the root', () => {
    // Entry 2 (1Table) gets entry 1 as its right sibling: 1 → 2 → 1.
    expect(checkCompoundFile(patched(DIRECTORY + 2 * 128 + 72, 1))).toBe(false);
    // The root's child is the root.
    expect(checkCompoundFile(patched(DIRECTORY + 76, 0))).toBe(false);
    // A child past the directory's end.
    expect(checkCompoundFile(patched(DIRECTORY + 76, 99))).toBe(false);
  });

  it('refuses a header that claims more table sectors than the file has, or an odd sector size', () => {
    expect(checkCompoundFile(patched(44, 1000))).toBe(false);
    const odd = makeDoc('Hello');
    odd.writeUInt16LE(20, 30);
    expect(checkCompoundFile(odd)).toBe(false);
    expect(checkCompoundFile(makeDoc('Hello').subarray(0, 600))).toBe(false);
  });
});

describe('keepWithin', () => {
  const pages = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `page ${i + 1}`, text: `[Page ${i + 1}]\nword` }));

  it('says a PDF was cut at the page cap, out of how many pages', () => {
    expect(keepWithin(pages(300), 60_000, 'pages', 8_000, 'the chat reads at most 300 pages of a PDF')).toMatch(
      /\[Page 300\]\nword\n\n\[… cut after page 300 of 8,000 pages: the chat reads at most 300 pages of a PDF; 7,700 more pages not included\]$/,
    );
  });

  it('says where the character cap cut, counting the pages never read', () => {
    const long = [{ label: 'page 1', text: 'x'.repeat(50) }, { label: 'page 2', text: 'y'.repeat(50) }];
    expect(keepWithin(long, 60, 'pages', 8_000)).toBe(`${'x'.repeat(50)}\n\n${'y'.repeat(8)}\n\n[… cut here in page 2 of 8,000 pages: the text is limited to 60 characters; 7,998 more pages not included]`);
  });

  it('adds nothing when everything was read', () => {
    expect(keepWithin(pages(3), 60_000, 'pages', 3, 'the chat reads at most 300 pages of a PDF')).not.toContain('cut');
  });
});
