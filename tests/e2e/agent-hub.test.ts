import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { startSiteServer, type RunningServer } from '../../scripts/platform/server';
import { TWELVE_GONE, catalogueWithout, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { MIME, makeDocx, makePdf, makeXlsx } from '../support/documents';
import { newPage, useBrowser, downloadBytes } from './harness';
import { seriousViolations } from '../support/axe';
import { CHAT_MODEL_COUNT, type ChatModelsResponse } from '../../src/lib/chat/models';
import { CHAT_CUT_NOTES, CHAT_ERRORS, CONTINUE_PROMPT } from '../../src/lib/chat/errors';
import { MSG } from '../../src/lib/messages';

/**
 * The agent hub end to end: real Chromium, the built site, the real chat function, and a fake
 * OpenAI-compatible service in place of OpenRouter. This file starts its own server (on the dist/ the
 * e2e globalSetup built) so the fake's URL and a test key are in the environment before the functions
 * load.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEST_KEY = 'sk-or-v1-e2e-SECRET-fedcba9876543210';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const browser = useBrowser();
let fake: FakeOpenAI;
let server: RunningServer;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // Today's catalogue, which no longer serves 12 of the hub's 19 picks.
  fake.setCatalogue({ models: catalogueWithout(TWELVE_GONE) });
  Object.assign(process.env, {
    CHAT_API_KEY: TEST_KEY,
    CHAT_API_BASE_URL: fake.baseUrl,
    CHAT_RATE_LIMIT_MAX: '1000',
  });
  server = await startSiteServer({ root, port: 0 });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
  process.env = saved;
});

async function openHub(page: Page) {
  const response = await page.goto(`${server.url}/ai-agent-hub`);
  expect(response?.status()).toBe(200);
  await page.locator('[data-testid="agent-hub"][data-hydrated="true"]').waitFor();
}

/** Retries an assertion on UI that settles asynchronously (hydration, file reading, fetches). */
const eventually = (assertion: () => Promise<unknown>) => vi.waitFor(assertion, { timeout: 15_000, interval: 50 });

const assistantBubbles = (page: Page) => page.locator('[role="log"] [data-role="assistant"]');

describe('agent hub', () => {
  it('chats with an agent: model, sliders, streaming, image, stop, errors, download, reload, back', async () => {
    const { context, page } = await newPage(browser(), { acceptDownloads: true });
    await openHub(page);

    await eventually(async () => expect(await page.locator('h1').textContent()).toBe('AI Agent Hub'));
    expect(await page.getByRole('button', { name: /^Activate / }).count()).toBe(3);
    await page.getByRole('button', { name: 'Activate Content Writer Agent' }).click();

    // Chat screen: heading, the system message and the greeting.
    await page.getByRole('heading', { level: 2, name: 'Content Writer Agent' }).waitFor();
    const log = page.getByRole('log');
    await eventually(async () => expect(await log.getAttribute('aria-live')).toBe('polite'));
    await log.locator('[data-role="system"]').getByText('concise, helpful').waitFor();
    await assistantBubbles(page).first().getByText("I'm the Content Writer Agent").waitFor();

    // Model list loaded and enabled: only models the catalogue serves, the default an existing large
    // Anthropic model (Opus 4.1 stands in for the retired Opus 4.5); pick a vision model.
    const select = page.getByLabel('Model');
    await eventually(async () => expect(await select.isEnabled()).toBe(true));
    await eventually(async () => expect(await select.inputValue()).toBe('anthropic/claude-opus-4.1'));
    const served = new Set(catalogueWithout(TWELVE_GONE).map((m) => m.id));
    const offered = await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThan(CHAT_MODEL_COUNT);
    for (const id of offered) expect(served.has(id), id).toBe(true);
    for (const id of TWELVE_GONE) expect(offered).not.toContain(id);
    expect(await select.locator('option:checked').textContent()).toMatch(/Opus 4\.1 · Slow · Excellent · \$\$\$\$ · 200k context · reads images/);
    await select.selectOption('openai/gpt-4o');

    // Advanced Settings: keyboard on the temperature slider, 0.7 -> 1.2.
    await page.getByText('Advanced Settings').click();
    const temperature = page.getByLabel('Temperature');
    await temperature.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await eventually(async () => expect(await page.locator('output[for="chat-temperature"]').textContent()).toBe('1.2'));
    await eventually(async () => expect(await page.locator('output[for="chat-top-p"]').textContent()).toBe('0.9'));

    // Send is off while blank; Shift+Enter adds a line and sends nothing.
    const input = page.getByLabel('Message', { exact: true });
    const send = page.getByRole('button', { name: 'Send' });
    await eventually(async () => expect(await send.isDisabled()).toBe(true));
    await input.fill('line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    await eventually(async () => expect(await input.inputValue()).toBe('line one\nline two'));
    expect(fake.requests).toHaveLength(0);

    // Enter sends: Thinking... until the first token, then the streamed Markdown reply.
    fake.setScenario({ kind: 'stream', hold: true, chunks: ['Here are ', '**three** ', 'taglines.'] });
    await input.fill('Write a tagline');
    await input.press('Enter');
    await log.locator('[data-role="user"]').getByText('Write a tagline').waitFor();
    await page.getByTestId('thinking').getByText('Thinking...').waitFor();
    await eventually(async () => expect(await send.isDisabled()).toBe(true));
    // Release only once the fake holds the request, or the release would come too early.
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1), { timeout: 15_000 });
    fake.release();
    await assistantBubbles(page).last().getByText('taglines.').waitFor();
    await eventually(async () => expect(await assistantBubbles(page).last().locator('strong').textContent()).toBe('three'));
    await eventually(async () => expect(await page.getByTestId('thinking').count()).toBe(0));

    const first = fake.requests[0]!;
    expect(first.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(first.body).toMatchObject({ model: 'openai/gpt-4o', temperature: 1.2, top_p: 0.9, stream: true });
    expect(first.body.messages[0].role).toBe('system');
    expect(first.body.messages[0].content).toContain('Content Writer Agent');
    expect(first.body.messages.at(-1)).toEqual({ role: 'user', content: 'Write a tagline' });

    // Attach an image: the tag prefixes the input; the vision model receives it; it is cleared after.
    fake.setScenario({ kind: 'stream', chunks: ['A tiny image.'] });
    await page.locator('#chat-file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
    await eventually(async () => expect(await input.inputValue()).toBe('[photo.png] '));
    await page.getByText('Attached:').waitFor();
    await input.pressSequentially('What is this?');
    await send.click();
    await assistantBubbles(page).last().getByText('A tiny image.').waitFor();
    const user = fake.requests[1]!.body.messages.at(-1);
    expect(user.content).toEqual([
      { type: 'text', text: '[photo.png] What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}`, detail: 'high' } },
    ]);
    await eventually(async () => expect(await page.getByText('Attached:').count()).toBe(0));

    // Stop ends a reply mid-stream and keeps what arrived.
    fake.setScenario({ kind: 'stall', chunks: ['Partial answer'] });
    await input.fill('Tell me more');
    await input.press('Enter');
    await assistantBubbles(page).last().getByText('Partial answer').waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('[data-role="assistant"][data-status="stopped"]').getByText('Partial answer').waitFor();
    await eventually(async () => expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0));
    // (That Stop also cancels the upstream request is checked in the integration tests: the local server
    // reads a left response to its end rather than cancelling it, so a disconnect is not passed on.)

    // A reply cut by the reply cap says so, and Continue asks for the rest.
    fake.setScenario({ kind: 'stream', chunks: ['The first half'], finish: 'length' });
    await input.fill('A long answer, please');
    await input.press('Enter');
    const cut = page.locator('[data-role="assistant"][data-status="cut"]');
    await cut.getByText('The first half').waitFor();
    await cut.getByText(CHAT_CUT_NOTES.length).waitFor();
    fake.setScenario({ kind: 'stream', chunks: ['and the second half.'] });
    await cut.getByRole('button', { name: 'Continue' }).click();
    await assistantBubbles(page).last().getByText('and the second half.').waitFor();
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: CONTINUE_PROMPT });
    expect(fake.requests.at(-1)!.body.messages.at(-2)).toEqual({ role: 'assistant', content: 'The first half' });

    // A reasoning model's thinking keeps the bubble alive and can be read.
    fake.setScenario({ kind: 'stream', reasoning: ['Comparing', ' two options'], chunks: ['Option B.'] });
    await input.fill('Which one?');
    await input.press('Enter');
    await assistantBubbles(page).last().getByText('Option B.').waitFor();
    await assistantBubbles(page).last().getByText('Show reasoning').click();
    await assistantBubbles(page).last().getByText('Comparing two options').waitFor();

    // An upstream error: the failure toast, and the hub's message (never the provider's) in the bubble.
    fake.setScenario({ kind: 'error', status: 402, message: 'Insufficient credits' });
    await input.fill('One more');
    await input.press('Enter');
    await page.getByText(MSG.chatFailed).first().waitFor();
    await page.locator('[data-role="assistant"][data-status="error"]').getByText(CHAT_ERRORS.creditSpent).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Insufficient credits');

    // Download the conversation.
    // The toast is awaited with the download: it lasts 4 s, which reading the file can outlast on a busy machine.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByText(MSG.chatDownloaded).waitFor(),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    expect(download.suggestedFilename()).toBe(`conversation-with-content-writer-${today}.txt`);
    const text = (await downloadBytes(download)).toString('utf8');
    expect(text).toContain('You: Write a tagline');
    expect(text).toContain('Content Writer Agent: Here are **three** taglines.');
    expect(text).toContain('You: [photo.png] What is this?');

    // Reload keeps the open agent and its conversation (sessionStorage).
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Content Writer Agent' }).waitFor();
    await log.locator('[data-role="user"]').getByText('Write a tagline').waitFor();

    // No serious accessibility problems on the chat screen.
    expect(await seriousViolations(page, '[data-testid="agent-hub"]')).toEqual([]);

    // Back to the list; another agent has its own conversation; the first one is still there.
    await page.getByRole('button', { name: 'Back to agents' }).click();
    // Focus returns to the card that was open; the keyboard opens another one.
    await eventually(async () =>
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-agent'))).toBe('content-writer'),
    );
    await page.getByRole('button', { name: 'Activate Data Analyst Agent' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Data Analyst Agent' }).waitFor();
    expect(await log.locator('[data-role="user"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Back to agents' }).click();
    await page.getByRole('button', { name: 'Activate Content Writer Agent' }).click();
    await log.locator('[data-role="user"]').getByText('Write a tagline').waitFor();

    await context.close();
  });

  it('reads attached documents (PDF, DOCX, XLSX), keeps their text for follow-ups, and refuses an encrypted PDF', async () => {
    const { context, page } = await newPage(browser());
    await openHub(page);
    await page.getByRole('button', { name: 'Activate Data Analyst Agent' }).click();
    const select = page.getByLabel('Model');
    await eventually(async () => expect(await select.isEnabled()).toBe(true));
    // A model that reads no images: documents are text for every model.
    await select.selectOption('meta-llama/llama-3.3-70b-instruct');
    const input = page.getByLabel('Message', { exact: true });
    const before = fake.requests.length;
    const pages = Array.from({ length: 10 }, (_, i) => `Plan page ${i + 1}\nMilestone ${i + 1}: budget ${(i + 1) * 1000}`);
    const files = [
      { name: 'plan.pdf', mimeType: MIME.pdf, buffer: makePdf(pages), expect: ['Plan page 1', 'Milestone 10: budget 10000'] },
      { name: 'brief.docx', mimeType: MIME.docx, buffer: await makeDocx(['Client brief', 'Launch in spring.']), expect: ['Client brief', 'Launch in spring.'] },
      { name: 'sales.xlsx', mimeType: MIME.xlsx, buffer: await makeXlsx({ Sales: [['month', 'units'], ['March', 42]] }), expect: ['[Sheet "Sales"]', 'March\t42'] },
    ];
    for (const [i, file] of files.entries()) {
      fake.setScenario({ kind: 'stream', chunks: [`Read ${file.name}.`] });
      await page.locator('#chat-file').setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
      await eventually(async () => expect(await input.inputValue()).toBe(`[${file.name}] `));
      await input.pressSequentially('Summarise');
      await input.press('Enter');
      await assistantBubbles(page).last().getByText(`Read ${file.name}.`).waitFor();
      const sent = fake.requests[before + i]!.body.messages.at(-1).content as string;
      expect(sent).toContain(`Contents of the attached file "${file.name}":`);
      for (const text of file.expect) expect(sent, file.name).toContain(text);
      await page.getByTestId('read-documents').getByText(file.name).waitFor();
    }
    // A follow-up question without an attachment still carries all three texts.
    fake.setScenario({ kind: 'stream', chunks: ['Milestone 7 costs 7000.'] });
    await input.fill('What does milestone 7 cost?');
    await input.press('Enter');
    await assistantBubbles(page).last().getByText('Milestone 7 costs 7000.').waitFor();
    const followUp = JSON.stringify(fake.requests.at(-1)!.body.messages);
    for (const text of ['Milestone 7: budget 7000', 'Launch in spring.', 'March\\t42']) expect(followUp).toContain(text);
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'What does milestone 7 cost?' });

    // An encrypted PDF: a clear message, nothing sent upstream.
    const sentSoFar = fake.requests.length;
    await page.locator('#chat-file').setInputFiles({ name: 'locked.pdf', mimeType: MIME.pdf, buffer: makePdf(pages, { encrypted: true }) });
    await eventually(async () => expect(await input.inputValue()).toBe('[locked.pdf] '));
    await input.pressSequentially('Read this');
    await input.press('Enter');
    await page.locator('[data-role="assistant"][data-status="error"]').getByText('"locked.pdf" is password-protected').waitFor();
    expect(fake.requests).toHaveLength(sentSoFar);
    await context.close();
  });

  it('a model removed between two refreshes: the clear message and a refreshed list', async () => {
    const { context, page } = await newPage(browser());
    await openHub(page);
    await page.getByRole('button', { name: 'Activate Market Research Agent' }).click();
    const select = page.getByLabel('Model');
    await eventually(async () => expect(await select.isEnabled()).toBe(true));
    await select.selectOption('google/gemini-2.5-flash');
    // The provider stops serving it after the hub's last refresh.
    fake.setCatalogue({ models: catalogueWithout([...TWELVE_GONE, 'google/gemini-2.5-flash']) });
    const input = page.getByLabel('Message', { exact: true });
    await input.fill('Hello?');
    await input.press('Enter');
    await page.locator('[data-role="assistant"][data-status="error"]').getByText(CHAT_ERRORS.modelGone).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/valid model ID/);
    await eventually(async () => expect(await select.locator('option[value="google/gemini-2.5-flash"]').count()).toBe(0));
    await eventually(async () => expect(await select.inputValue()).toBe('anthropic/claude-opus-4.1'));
    // The list function (another instance) follows the shared copy.
    await eventually(async () => {
      const models = (await (await fetch(`${server.url}/api/chat/models`)).json()) as ChatModelsResponse;
      expect(models.models.map((m) => m.id)).not.toContain('google/gemini-2.5-flash');
    });
    await context.close();
  });

  it('shows the not-configured message and keeps Send off when the server has no key', async () => {
    const { context, page } = await newPage(browser());
    // The real 503 path is covered by the integration tests; here only the island's handling of it.
    await page.route('**/api/chat/models', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      await route.fulfill({ response: res, json: { ...body, configured: false, message: CHAT_ERRORS.notConfigured } });
    });
    await openHub(page);
    await page.getByRole('button', { name: 'Activate Market Research Agent' }).click();
    await page.getByText(CHAT_ERRORS.notConfigured).waitFor();
    // Visitors are told chat is unavailable; the operator's setup hint is not theirs to read.
    expect(await page.locator('body').innerText()).not.toContain('CHAT_API_KEY');
    await eventually(async () => expect(await page.getByLabel('Model').isDisabled()).toBe(true));
    await page.getByLabel('Message', { exact: true }).fill('Hello?');
    await eventually(async () => expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true));
    await context.close();
  });

  it('never exposes the key: not in pages, API answers or any built asset', async () => {
    const pageHtml = await (await fetch(`${server.url}/ai-agent-hub`)).text();
    const models = await (await fetch(`${server.url}/api/chat/models`)).text();
    expect(pageHtml).not.toContain(TEST_KEY);
    expect(models).not.toContain(TEST_KEY);
    expect(JSON.parse(models).configured).toBe(true);

    const files = await readdir(path.join(root, 'dist'), { recursive: true, withFileTypes: true });
    const texts = files.filter((f) => f.isFile() && /\.(html|js|css|json|txt|xml|mjs)$/.test(f.name));
    expect(texts.length).toBeGreaterThan(0);
    for (const f of texts) {
      const content = await readFile(path.join(f.parentPath, f.name), 'utf8');
      expect(content, f.name).not.toContain(TEST_KEY);
      expect(content, f.name).not.toMatch(/sk-or-v1-[0-9a-f]{20,}/);
      expect(content, f.name).not.toContain('CHAT_API_KEY=');
    }
  });
});
