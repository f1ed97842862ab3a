import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { query } from '../../../netlify/lib/db';
import { startFakeOpenAI, type FakeOpenAI } from '../../support/fake-openai';
import { startEmbedded } from '../platform/helpers/backends';
import { TEST_KEY } from './helpers';

/**
 * The chat against a fake provider, on the test file's own embedded platform (SQL catalogue, spend and rate
 * limits). Each test starts with the operator's key and the fake's address set, the variables in `unset` unset,
 * and today's chat spend and chat rate limits cleared; the environment is put back after the file.
 */
export function useChatPlatform(unset: readonly string[]): { readonly fake: FakeOpenAI } {
  const handle = {} as { fake: FakeOpenAI };
  let platform: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    platform = await startEmbedded();
    handle.fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await handle.fake?.close();
    await platform?.stop();
    process.env = { ...savedEnv };
  });
  beforeEach(async () => {
    handle.fake.reset();
    Object.assign(process.env, { CHAT_API_KEY: TEST_KEY, CHAT_API_BASE_URL: handle.fake.baseUrl, PUBLIC_SITE_URL: 'https://lumora.test' });
    for (const k of unset) delete process.env[k];
    await query(`delete from rate_limits where key like 'chat:%'`);
    await query('delete from chat_spend');
  });
  return handle;
}

/**
 * The chat against a fake provider, without a database (the catalogue, documents): each test starts with the
 * operator's key and the fake's address set, and the environment is put back after each test.
 */
export function useFakeProvider(): { readonly fake: FakeOpenAI } {
  const handle = {} as { fake: FakeOpenAI };
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    handle.fake = await startFakeOpenAI();
  });
  afterAll(() => handle.fake?.close());
  beforeEach(() => {
    handle.fake.reset();
    Object.assign(process.env, { CHAT_API_KEY: TEST_KEY, CHAT_API_BASE_URL: handle.fake.baseUrl, PUBLIC_SITE_URL: 'https://lumora.test' });
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });
  return handle;
}

