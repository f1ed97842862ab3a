import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { makeBlogSchema, makePageSchema } from '../../src/content/schemas';
import { EDITOR_BUNDLE_PATH } from '../../src/editor/paths';
import { formatMdxFile, parseMdxFile, readAsBuilt } from '../../src/editor/mdx-file';
import { startDevServer, type DevServer } from './dev-server';
import { eventually, expectVisible, field, openEntry, openSection, persistRequests, publishNow, snapshot } from './editor-page';
import { newPage, useBrowser } from './harness';

// The content editor at /admin under `npm run dev`, in a copy of the project (dev-server.ts): the editor writes
// that copy's src/content/ as it would this checkout's. The dev server runs on the e2e run's embedded database.
const imageStandIn = () => z.string();
const uploadName = 'editor-test-upload.png';
const PAGE = 'src/content/pages/automation.mdx';
const POST = 'src/content/blog/ai-strategy.mdx';

const getBrowser = useBrowser();
let dev: DevServer;
const at = (file: string) => path.join(dev.root, file);
const originals = new Map<string, string>();
const initial = (file: string) => originals.get(file)!;

beforeAll(async () => {
  dev = await startDevServer(inject('platformEnv'));
  // The editor's bundle (Decap CMS and all) is built by esbuild on its first request: built here, within this
  // hook's time, so the first test's page load does not wait for it (on a busy machine it took over 30 s).
  const bundle = await fetch(`${dev.url}${EDITOR_BUNDLE_PATH}`);
  if (!bundle.ok) throw new Error(`The editor bundle answered ${bundle.status}`);
  await bundle.text();
  for (const file of [PAGE, POST]) originals.set(file, await readFile(at(file), 'utf8'));
}, 300_000);

afterAll(() => dev?.stop());

// A failed test shows what the editor's bundle answers now and what the dev server logged.
afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail' || !dev) return;
  const bundle = await fetch(`${dev.url}${EDITOR_BUNDLE_PATH}`).then(async (r) => `${r.status} ${(await r.text()).slice(0, 400)}`, (e: Error) => e.message);
  console.error(`The editor bundle answers: ${bundle}\nThe dev server logged:\n${dev.output().slice(-3000)}`);
});

const fetchText = (p: string) => fetch(`${dev.url}${p}`).then((r) => r.text());

describe('content editor on the dev server', () => {
  it("changes a page's heading and adds an item to a section: the file, the schema and the page follow", async () => {
    const { page } = await newPage(getBrowser());
    await openEntry(page, dev.url, 'pages', 'automation');
    await field(page, 'Heading (optional)').fill('Automation That Pays for Itself');
    const section = await openSection(page, 'Why automate');
    await section.getByRole('button', { name: 'Add item' }).click();
    await section.getByLabel('Item', { exact: true }).last().fill('Month-end closing in days, not weeks.');
    await publishNow(page);
    await expectVisible(page.getByText('Entry saved'));

    // Exactly the two changes, everything else byte for byte as it was.
    const before = parseMdxFile(initial(PAGE));
    const sections = before.data.sections as Array<{ title?: string; items?: string[] }>;
    sections.find((s) => s.title === 'Why automate')!.items!.push('Month-end closing in days, not weeks.');
    const expected = formatMdxFile({ data: { ...before.data, heading: 'Automation That Pays for Itself' }, body: before.body });
    const written = await readFile(at(PAGE), 'utf8');
    expect(written).toBe(expected);
    const changed = written.split('\n').filter((line) => !initial(PAGE).split('\n').includes(line));
    expect(changed).toEqual(['heading: Automation That Pays for Itself', '      - Month-end closing in days, not weeks.']);

    expect(makePageSchema(imageStandIn).safeParse(readAsBuilt(written)).success).toBe(true);
    await eventually(() => fetchText('/automation'), (html) => {
      expect(html).toMatch(/<h1[^>]*>[^<]*Automation That Pays for Itself/);
      expect(html).toContain('Month-end closing in days, not weeks.');
    });
  });

  it("serves the editor's script with its source map beside it (fetched only by DevTools), not inside it", async () => {
    const script = await fetchText(EDITOR_BUNDLE_PATH);
    expect(script.trimEnd().endsWith('//# sourceMappingURL=editor.js.map')).toBe(true);
    const map = await fetch(`${dev.url}${EDITOR_BUNDLE_PATH}.map`);
    expect(map.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await map.json()) as { sources: string[] }).sources.filter((source) => source.endsWith('src/editor/admin.ts'))).toHaveLength(1);
  });

  it('refuses an empty title and an over-long description with a clear message, and writes nothing', async () => {
    const { page } = await newPage(getBrowser());
    await openEntry(page, dev.url, 'pages', 'automation');
    const files = await snapshot(at('src/content'));
    const saves = persistRequests(page);
    await field(page, 'Title').fill('');
    await field(page, 'Description').fill('Automation for every team. '.repeat(8));
    await publishNow(page);
    await expectVisible(page.getByText('Title is required.'));
    await expectVisible(page.getByText('Description: must be 50 to 170 characters.'));
    await expectVisible(page.getByText('Not saved: a required field is empty (marked in red).'));
    // Refused before the save: no write reached the file API, and every file is as it was.
    expect(saves).toEqual([]);
    expect(await snapshot(at('src/content'))).toEqual(files);
  });

  it("refuses what only the page schema knows (a page needs a heading or a hero), with the schema's message", async () => {
    const { page } = await newPage(getBrowser());
    await openEntry(page, dev.url, 'pages', 'automation');
    const files = await snapshot(at('src/content'));
    const saves = persistRequests(page);
    await field(page, 'Heading (optional)').fill('');
    await publishNow(page);
    await expectVisible(page.getByText(/Not saved\. Fix this first: Heading: a page needs a heading or a hero section/));
    expect(saves).toEqual([]);
    expect(await snapshot(at('src/content'))).toEqual(files);
  });

  it('saves a post diff-free: a changed title changes one line, and changing it back restores the file byte for byte', async () => {
    const { page } = await newPage(getBrowser());
    await openEntry(page, dev.url, 'blog', 'ai-strategy');
    const title = field(page, 'Title');
    const original = await title.inputValue();
    await title.fill(`${original} Today`);
    await publishNow(page);
    await expectVisible(page.getByText('Entry saved'));
    const once = await readFile(at(POST), 'utf8');
    expect(once.split('\n').filter((line) => !initial(POST).split('\n').includes(line))).toEqual([`title: ${original} Today`]);
    expect(once.split('\n')).toHaveLength(initial(POST).split('\n').length);

    // Later, the author opens the post again and puts the title back.
    await page.reload();
    await expect.poll(() => title.inputValue(), { timeout: 30_000 }).toBe(`${original} Today`);
    await title.fill(original);
    await publishNow(page);
    await expectVisible(page.getByText('Entry saved'));
    expect(await readFile(at(POST), 'utf8')).toBe(initial(POST));
  });

  it("puts an uploaded image beside the content images, and the page shows it through Astro's image pipeline", async () => {
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3355aa' } }).png().toBuffer();
    const { page } = await newPage(getBrowser());
    await openEntry(page, dev.url, 'blog', 'ai-strategy');
    await page.getByRole('button', { name: 'Choose different image' }).click();
    await page.locator('input[type="file"]').setInputFiles({ name: uploadName, mimeType: 'image/png', buffer: png });
    await expectVisible(page.getByText(uploadName));
    await page.getByRole('button', { name: 'Choose selected' }).click();
    await publishNow(page);
    await expectVisible(page.getByText('Entry saved'));

    expect(await readFile(at(`src/assets/content/blog/${uploadName}`))).toEqual(png);
    const written = await readFile(at(POST), 'utf8');
    expect(parseMdxFile(written).data.image).toBe(`../../assets/content/blog/${uploadName}`);
    expect(makeBlogSchema(imageStandIn).safeParse(readAsBuilt(written)).success).toBe(true);
    // Astro's dev server serves the article's image from its image endpoint, resized and converted. It re-renders
    // within seconds on an idle machine; the other test files running beside this one can stretch that past a minute.
    let src = '';
    await eventually(() => fetchText('/blog/ai-strategy'), (html) => {
      src = /<img[^>]+src="([^"]*editor-test-upload[^"]*)"/.exec(html)?.[1] ?? '';
      expect(src, `the article's image; the dev server said:\n${dev.output().slice(-1500)}`).toContain('/_image?');
    }, 180_000);
    const image = await fetch(new URL(src.replaceAll('&#38;', '&').replaceAll('&amp;', '&'), dev.url));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/(webp|avif|jpeg)/);
  }, 300_000);
});
