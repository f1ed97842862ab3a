import type { ChatRequestMessage } from '../../../src/lib/chat/schema';
import { imageParts, promptTokenEstimate } from '../../../src/lib/chat/schema';
import type { Pricing } from './resolve';

/**
 * The chat's spend in dollars (micro-dollars inside). Before a request goes upstream its estimate is
 * reserved against the site's day (CHAT_DAILY_BUDGET_USD) and the client's share of it; when the reply
 * ends the reservation is replaced by what the provider reported (OpenRouter's `usage.cost`, else the
 * usage tokens at the catalogue's prices, else the estimate). In SQL (`chat_reserve` / `chat_settle`)
 * when DATABASE_URL is set, so every instance counts one day; in memory, per instance, without it.
 */
export interface Reservation {
  day: string;
  client: string;
  estimateMicros: number;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; refusedBy: 'site' | 'client' };

export interface SpendStore {
  reserve(client: string, estimateMicros: number, siteLimitMicros: number, clientLimitMicros: number): Promise<ReserveResult>;
  settle(reservation: Reservation, actualMicros: number, replied: boolean): Promise<void>;
  /** The site's day so far (spent, and reserved by replies still streaming). */
  today(): Promise<{ day: string; spentMicros: number; reservedMicros: number; replies: number }>;
}

export const MICROS = 1_000_000;
export const toMicros = (usd: number) => Math.ceil(usd * MICROS);

/** Until the catalogue says, a model is priced like the dearest tier: the estimate must not be too low. */
const UNKNOWN_PRICING: Pricing = { prompt: 15 / MICROS, completion: 75 / MICROS, request: 0, image: 0.005 };

/** The most a request can cost: its estimated prompt tokens and the reply cap, at the model's prices. */
export function estimateUsd(messages: readonly ChatRequestMessage[], maxTokens: number, pricing: Pricing | null, selfHosted: boolean): number {
  if (selfHosted) return 0;
  const p = pricing ?? UNKNOWN_PRICING;
  const images = messages.reduce((n, m) => n + imageParts(m.content), 0);
  return promptTokenEstimate(messages) * p.prompt + maxTokens * p.completion + p.request + images * p.image;
}

export interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  /** OpenRouter: what the request was charged, in dollars (credits). */
  cost?: number;
}

/** What a finished reply cost: the provider's cost, else its token counts at the catalogue's prices; null when neither is known. */
export function actualUsd(usage: Usage | null, pricing: Pricing | null, selfHosted: boolean): number | null {
  if (selfHosted) return 0;
  if (!usage) return null;
  if (typeof usage.cost === 'number' && Number.isFinite(usage.cost) && usage.cost >= 0) return usage.cost;
  if (pricing && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
    return usage.prompt_tokens * pricing.prompt + usage.completion_tokens * pricing.completion + pricing.request;
  }
  return null;
}

const utcDay = (t = Date.now()) => new Date(t).toISOString().slice(0, 10);

export class MemorySpendStore implements SpendStore {
  private rows = new Map<string, { reserved: number; spent: number; replies: number }>();
  constructor(private now: () => number = Date.now) {}

  private row(day: string, scope: string) {
    const key = `${day}|${scope}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { reserved: 0, spent: 0, replies: 0 }));
    return row;
  }

  async reserve(client: string, estimate: number, siteLimit: number, clientLimit: number): Promise<ReserveResult> {
    const day = utcDay(this.now());
    for (const key of this.rows.keys()) if (!key.startsWith(day)) this.rows.delete(key);
    const site = this.row(day, 'site');
    const mine = this.row(day, client);
    if (site.reserved + site.spent + estimate > siteLimit) return { ok: false, refusedBy: 'site' };
    if (mine.reserved + mine.spent + estimate > clientLimit) return { ok: false, refusedBy: 'client' };
    site.reserved += estimate;
    mine.reserved += estimate;
    return { ok: true, reservation: { day, client, estimateMicros: estimate } };
  }

  async settle({ day, client, estimateMicros }: Reservation, actual: number, replied: boolean): Promise<void> {
    for (const scope of ['site', client]) {
      const row = this.rows.get(`${day}|${scope}`);
      if (!row) continue;
      row.reserved = Math.max(0, row.reserved - estimateMicros);
      row.spent += Math.max(0, actual);
      if (replied) row.replies += 1;
    }
  }

  async today() {
    const day = utcDay(this.now());
    const row = this.rows.get(`${day}|site`);
    return { day, spentMicros: row?.spent ?? 0, reservedMicros: row?.reserved ?? 0, replies: row?.replies ?? 0 };
  }
}

type Query = (text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;
const dbQuery: Query = async (text, params) => (await import('../db/index')).query(text, params);

export class SqlSpendStore implements SpendStore {
  constructor(private query: Query = dbQuery) {}

  async reserve(client: string, estimate: number, siteLimit: number, clientLimit: number): Promise<ReserveResult> {
    const rows = await this.query('select day::text as day, refused from chat_reserve($1, $2, $3, $4)', [client.slice(0, 300), estimate, siteLimit, clientLimit]);
    const row = rows[0];
    if (!row) throw new Error('chat_reserve returned no row');
    if (row.refused === 'site' || row.refused === 'client') return { ok: false, refusedBy: row.refused };
    return { ok: true, reservation: { day: String(row.day), client: client.slice(0, 300), estimateMicros: estimate } };
  }

  async settle({ day, client, estimateMicros }: Reservation, actual: number, replied: boolean): Promise<void> {
    await this.query('select chat_settle($1, $2::date, $3, $4, $5)', [client, day, estimateMicros, Math.max(0, Math.round(actual)), replied]);
  }

  async today() {
    const rows = await this.query(
      `select (now() at time zone 'utc')::date::text as day, coalesce(sum(spent_micros), 0)::bigint as spent, coalesce(sum(reserved_micros), 0)::bigint as reserved, coalesce(sum(replies), 0)::int as replies
         from chat_spend where day = (now() at time zone 'utc')::date and scope = 'site'`,
    );
    const row = rows[0] ?? {};
    return { day: String(row.day), spentMicros: Number(row.spent ?? 0), reservedMicros: Number(row.reserved ?? 0), replies: Number(row.replies ?? 0) };
  }
}

/** SQL first; on a store error, logs once and keeps counting in memory (the chat keeps working). */
export class FallbackSpendStore implements SpendStore {
  private failed = false;
  constructor(private primary: SpendStore, private fallback: SpendStore, private warn: (m: string) => void = console.warn) {}

  private async run<T>(fn: (s: SpendStore) => Promise<T>): Promise<T> {
    if (!this.failed) {
      try {
        return await fn(this.primary);
      } catch (error) {
        this.failed = true;
        this.warn(`[chat] spend store failed, counting spend in memory: ${(error as Error).message}`);
      }
    }
    return fn(this.fallback);
  }

  reserve(client: string, estimate: number, siteLimit: number, clientLimit: number) {
    return this.run((s) => s.reserve(client, estimate, siteLimit, clientLimit));
  }
  settle(reservation: Reservation, actual: number, replied: boolean) {
    return this.run((s) => s.settle(reservation, actual, replied));
  }
  today() {
    return this.run((s) => s.today());
  }
}

let shared: SpendStore | null = null;

export function sharedSpendStore(env: Record<string, string | undefined> = process.env): SpendStore {
  if (shared) return shared;
  if (!env.DATABASE_URL) console.warn('[chat] DATABASE_URL is not set: the day’s spend in dollars is counted in memory, per function instance.');
  shared = env.DATABASE_URL ? new FallbackSpendStore(new SqlSpendStore(), new MemorySpendStore()) : new MemorySpendStore();
  return shared;
}
