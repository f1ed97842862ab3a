import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { LOCAL_API_PATH } from '../../src/editor/paths';

/** Moves through the content editor (Decap CMS at /admin) the way an author does. */

/** Opens one entry's form: the editor, its local "Login" (no account under `npm run dev`), then the entry. */
export async function openEntry(page: Page, base: string, collection: string, slug: string): Promise<void> {
  await page.goto(`${base}/admin`);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.goto(`${base}/admin#/collections/${collection}/entries/${slug}`);
  await field(page, 'Title').waitFor();
}

/** A field of the entry itself (sections repeat labels such as Title further down the form). */
export const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true }).first();

/** Decap's "Publish → Publish now" (the save of the dev server's simple publishing mode). */
export async function publishNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Publish now' }).click();
}

/**
 * The writes the page sends to the dev server's file API from now on (Decap's local backend posts every call
 * there; a save is a `persist…` action): a refused save is proven by this list staying empty, not by a wait.
 */
export function persistRequests(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(LOCAL_API_PATH) && /"action"\s*:\s*"persist/.test(request.postData() ?? '')) writes.push(request.postData()!);
  });
  return writes;
}

/** Opens the collapsed section whose summary (its title) is `title`, and returns its fields' container. */
export async function openSection(page: Page, title: string): Promise<Locator> {
  const summary = page.getByText(title, { exact: true });
  if (!(await summary.isVisible())) await page.getByText(/^\d+ sections$/).click();
  await summary.locator('xpath=preceding-sibling::div[1]/button[1]').click();
  return summary.locator('xpath=following-sibling::div[1]');
}

/** Every file under `dir` with its size and modification time, to show that a refused save wrote nothing. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const entries = await Promise.all(
    files.map(async (e) => {
      const file = path.join(e.parentPath, e.name);
      const info = await stat(file);
      return [file, `${info.size}:${info.mtimeMs}:${(await readFile(file)).toString('base64').length}`] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Waits until `read()` passes `check` (the dev server re-renders a page shortly after its file changes). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => void, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    try {
      check(value);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export const expectVisible = (locator: Locator) => expect.poll(() => locator.isVisible(), { timeout: 15_000 }).toBe(true);
