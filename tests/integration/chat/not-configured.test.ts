import { afterEach, describe, expect, it, vi } from 'vitest';
import modelsFunction from '../../../netlify/functions/chat-models.mts';
import chatFunction from '../../../netlify/functions/chat.mts';
import healthFunction from '../../../netlify/functions/health.mts';
import { CHAT_SETUP_HINT } from '../../../netlify/lib/chat/config';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { TEST_KEY, chatRequest, validBody } from './helpers';
import { operatorHealthRequest } from '../../support/operator-health';

// Without a key, visitors read that chat is unavailable; only the operator learns how to turn it on.
const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
  vi.restoreAllMocks();
});

function withoutKey() {
  delete process.env.CHAT_API_KEY;
  delete process.env.OPENROUTER_API_KEY;
}

describe('chat without a key', () => {
  it('tells visitors it is unavailable, with no operator instruction, and logs the setup hint once', async () => {
    withoutKey();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const body = await (await modelsFunction(new Request('http://localhost/api/chat/models'))).json();
    expect(body).toMatchObject({ configured: false, message: CHAT_ERRORS.notConfigured });
    expect(body.message).toMatch(/unavailable right now/);
    expect(body.message).not.toMatch(/CHAT_API_KEY|server|set /i);

    const res = await chatFunction(chatRequest(validBody()));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ success: false, error: CHAT_ERRORS.notConfigured });

    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([`[chat] ${CHAT_SETUP_HINT}`]);
    expect(CHAT_SETUP_HINT).toContain('CHAT_API_KEY');
  });

  it('/api/health gives the operator the hint while chat is off, and drops it once a key is set; visitors see none', async () => {
    withoutKey();
    expect(await (await healthFunction(new Request('http://localhost/api/health'))).text()).not.toContain(CHAT_SETUP_HINT);
    withoutKey();
    const off = await (await healthFunction(operatorHealthRequest('http://localhost/api/health'))).json();
    expect(off.chat).toEqual({ configured: false, hint: CHAT_SETUP_HINT });

    process.env.CHAT_API_KEY = TEST_KEY;
    // A closed port: the catalogue cannot be read, so the curated list is reported unverified.
    process.env.CHAT_API_BASE_URL = 'http://127.0.0.1:9/api/v1';
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const on = await (await healthFunction(operatorHealthRequest('http://localhost/api/health'))).json();
    expect(on.chat).toMatchObject({ configured: true, catalogue: { verified: false, lastError: expect.any(String) } });
    expect(on.chat.hint).toBeUndefined();
    expect(JSON.stringify(on)).not.toContain(TEST_KEY);
  });
});
