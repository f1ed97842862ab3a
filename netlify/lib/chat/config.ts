import { site } from '../../../src/lib/site';

/**
 * Server-only chat settings, read from the environment on each request so a key added in the Netlify
 * UI takes effect without a redeploy and tests can point the proxy at a local fake.
 */
export interface ChatConfig {
  apiKey: string | null;
  baseUrl: string;
  siteUrl: string;
  appTitle: string;
  rateLimit: { max: number; windowSeconds: number };
  /** Site-wide daily budget on the operator's key: requests, and estimated tokens (prompt + reply cap). */
  dailyBudget: { requests: number; tokens: number };
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
}

export const DEFAULT_CHAT_BASE_URL = 'https://openrouter.ai/api/v1';

type Env = Record<string, string | undefined>;

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function readChatConfig(env: Env = process.env): ChatConfig {
  const apiKey = (env.CHAT_API_KEY ?? '').trim() || (env.OPENROUTER_API_KEY ?? '').trim() || null;
  return {
    apiKey,
    baseUrl: ((env.CHAT_API_BASE_URL ?? '').trim() || DEFAULT_CHAT_BASE_URL).replace(/\/+$/, ''),
    siteUrl: (env.PUBLIC_SITE_URL ?? '').trim() || site.url,
    appTitle: site.brand,
    rateLimit: {
      max: positiveInt(env.CHAT_RATE_LIMIT_MAX, 20),
      windowSeconds: positiveInt(env.CHAT_RATE_LIMIT_WINDOW_SECONDS, 300),
    },
    dailyBudget: {
      requests: positiveInt(env.CHAT_DAILY_REQUESTS, 2_000),
      tokens: positiveInt(env.CHAT_DAILY_TOKENS, 4_000_000),
    },
    firstByteTimeoutMs: positiveInt(env.CHAT_FIRST_BYTE_TIMEOUT_MS, 30_000),
    idleTimeoutMs: positiveInt(env.CHAT_IDLE_TIMEOUT_MS, 30_000),
  };
}

/** What an operator must do to turn chat on: logged by the server and shown by /api/health, never to visitors. */
export const CHAT_SETUP_HINT = 'Chat is off: set CHAT_API_KEY (or OPENROUTER_API_KEY) on the server to enable it.';

export interface ChatHealth {
  configured: boolean;
  hint?: string;
}

export function chatHealth(config: ChatConfig = readChatConfig()): ChatHealth {
  return config.apiKey ? { configured: true } : { configured: false, hint: CHAT_SETUP_HINT };
}

let hintLogged = false;

/** Logs the setup hint once per server process, the first time a visitor meets the unconfigured chat. */
export function logChatSetupHint(): void {
  if (hintLogged) return;
  hintLogged = true;
  console.warn(`[chat] ${CHAT_SETUP_HINT}`);
}
