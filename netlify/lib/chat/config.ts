import { isIP } from 'node:net';
import { DOCUMENT_LIMITS } from '../../../src/lib/chat/request-limits';
import { site } from '../../../src/lib/site';

/**
 * Server-only chat settings, read from the environment on each request so a key added in the Netlify
 * UI takes effect without a redeploy and tests can point the proxy at a local stand-in.
 */
export interface ChatConfig {
  apiKey: string | null;
  baseUrl: string;
  /**
   * The operator's own server: a loopback or private address and no key (Ollama, LM Studio, vLLM, llama.cpp).
   * Its models are listed as they are and cost nothing. With a key the endpoint is a billed service, wherever it is.
   */
  selfHosted: boolean;
  /** A key is set, or the endpoint is self-hosted. */
  configured: boolean;
  siteUrl: string;
  appTitle: string;
  rateLimit: { max: number; windowSeconds: number };
  /**
   * Site-wide daily budget on the operator's key: requests, estimated tokens (prompt + reply cap) and
   * dollars (estimated before, corrected by the provider's usage after); each client may use `clientShare` of each.
   */
  dailyBudget: { requests: number; tokens: number; usd: number; clientShare: number };
  /** How long the catalogue answer is trusted before it is fetched again. */
  catalogueTtlSeconds: number;
  /** CHAT_MODELS / CHAT_DEFAULT_MODEL: the operator's own list and default. */
  pins: string[];
  defaultPin: string | undefined;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  /** The reply is ended (and said so) before the platform ends the function: Netlify stops it at 60 s. */
  timeLimitMs: number;
  /** Reading time for the documents of one request (DOCUMENT_LIMITS.readTimeMs unless CHAT_DOCUMENT_TIME_LIMIT_MS). */
  documentTimeLimitMs: number;
}

export const DEFAULT_CHAT_BASE_URL = 'https://openrouter.ai/api/v1';

type Env = Record<string, string | undefined>;

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

function positiveNumber(value: string | undefined, fallback: number, max = Infinity): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(n) && n > 0 && n <= max ? n : fallback;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Loopback, private and link-local addresses, `localhost` and `.local` / `.internal` names: the operator's own machines. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  if (isIP(host) === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (isIP(host) === 6) return host === '::1' || /^f[cd]/.test(host) || host.startsWith('fe80:');
  return false;
}

function selfHostedUrl(url: string): boolean {
  try {
    return isPrivateHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function readChatConfig(env: Env = process.env): ChatConfig {
  const apiKey = (env.CHAT_API_KEY ?? '').trim() || (env.OPENROUTER_API_KEY ?? '').trim() || null;
  const baseUrl = ((env.CHAT_API_BASE_URL ?? '').trim() || DEFAULT_CHAT_BASE_URL).replace(/\/+$/, '');
  const selfHosted = apiKey === null && selfHostedUrl(baseUrl);
  return {
    apiKey,
    baseUrl,
    selfHosted,
    configured: apiKey !== null || selfHosted,
    siteUrl: (env.PUBLIC_SITE_URL ?? '').trim() || site.url,
    appTitle: site.brand,
    rateLimit: {
      max: positiveInt(env.CHAT_RATE_LIMIT_MAX, 20),
      windowSeconds: positiveInt(env.CHAT_RATE_LIMIT_WINDOW_SECONDS, 300),
    },
    dailyBudget: {
      requests: positiveInt(env.CHAT_DAILY_REQUESTS, 2_000),
      tokens: positiveInt(env.CHAT_DAILY_TOKENS, 4_000_000),
      usd: positiveNumber(env.CHAT_DAILY_BUDGET_USD, 5),
      clientShare: positiveNumber(env.CHAT_CLIENT_SHARE, 0.1, 1),
    },
    catalogueTtlSeconds: positiveInt(env.CHAT_CATALOGUE_TTL_SECONDS, 3_600),
    pins: list(env.CHAT_MODELS),
    defaultPin: (env.CHAT_DEFAULT_MODEL ?? '').trim() || undefined,
    firstByteTimeoutMs: positiveInt(env.CHAT_FIRST_BYTE_TIMEOUT_MS, 30_000),
    idleTimeoutMs: positiveInt(env.CHAT_IDLE_TIMEOUT_MS, 30_000),
    timeLimitMs: positiveInt(env.CHAT_TIME_LIMIT_MS, 55_000),
    // Below the reply's own time limit, so a request that reads documents can still be answered.
    documentTimeLimitMs: Math.min(40_000, positiveInt(env.CHAT_DOCUMENT_TIME_LIMIT_MS, DOCUMENT_LIMITS.readTimeMs)),
  };
}

/** What an operator must do to turn chat on: logged by the server and shown by /api/health, never to visitors. */
export const CHAT_SETUP_HINT =
  'Chat is off: set CHAT_API_KEY (or OPENROUTER_API_KEY) on the server, or point CHAT_API_BASE_URL at your own OpenAI-compatible server.';

let hintLogged = false;

/** Logs the setup hint once per server process, the first time a visitor meets the unconfigured chat. */
export function logChatSetupHint(): void {
  if (hintLogged) return;
  hintLogged = true;
  console.warn(`[chat] ${CHAT_SETUP_HINT}`);
}
