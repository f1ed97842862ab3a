import type { ChatRequestMessage } from '../../../src/lib/chat/schema';
import { promptTokenEstimate, sentImages } from '../../../src/lib/chat/schema';
import type { ChatConfig } from './config';
import type { Pricing } from './resolve';

/**
 * The chat's day, per UTC day, for the site and for each client: dollars (micro-dollars inside), tokens and
 * requests. Before a request goes upstream its estimate is reserved against the site's day
 * (CHAT_DAILY_BUDGET_USD, CHAT_DAILY_TOKENS, CHAT_DAILY_REQUESTS) and the client's share of each
 * (CHAT_CLIENT_SHARE), all or nothing: a refused request books nothing anywhere. When the reply ends the
 * reservation is replaced by what the provider reported (OpenRouter's `usage.cost` and its token counts,
 * else the tokens at the catalogue's prices, else the estimate). In SQL (`chat_reserve` / `chat_settle`) when
 * DATABASE_URL is set, so every instance counts one day; in memory, per instance, without it.
 */
export interface Cost {
  micros: number;
  tokens: number;
}

/** What the site's day and one client's share of it allow. */
export interface DayLimits {
  site: { micros: number; tokens: number; requests: number };
  client: { micros: number; tokens: number; requests: number };
}

export interface Reservation {
  day: string;
  client: string;
  estimate: Cost;
  /** Booked in memory while the database could not be reached: settled there too. */
  local?: boolean;
}

/** `unavailable`: the database cannot be reached, and the request would cost money (FallbackSpendStore). */
export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; refusedBy: 'site' | 'client' | 'unavailable' };

export interface DayTotals {
  day: string;
  spentMicros: number;
  reservedMicros: number;
  /** Tokens spent and reserved. */
  tokens: number;
  requests: number;
  replies: number;
}

export interface SpendStore {
  reserve(client: string, estimate: Cost, limits: DayLimits): Promise<ReserveResult>;
  settle(reservation: Reservation, actual: Cost, replied: boolean): Promise<void>;
  /** The site's day so far (spent, and reserved by replies still streaming). */
  today(): Promise<DayTotals>;
}

export const MICROS = 1_000_000;
export const toMicros = (usd: number) => Math.ceil(usd * MICROS);

/** The site's day from the configuration, and one client's share of each budget (at least one request). */
export function dayLimits({ usd, tokens, requests, clientShare }: ChatConfig['dailyBudget']): DayLimits {
  const micros = toMicros(usd);
  return {
    site: { micros, tokens, requests },
    client: { micros: Math.floor(micros * clientShare), tokens: Math.floor(tokens * clientShare), requests: Math.max(1, Math.floor(requests * clientShare)) },
  };
}

/** Until the catalogue says, a model is priced like the dearest tier: the estimate must not be too low. */
const UNKNOWN_PRICING: Pricing = { prompt: 15 / MICROS, completion: 75 / MICROS, request: 0, image: 0.005 };

/** The most a request can cost: its estimated prompt tokens and the reply cap, at the model's prices. */
export function estimateUsd(messages: readonly ChatRequestMessage[], maxTokens: number, pricing: Pricing | null, selfHosted: boolean, vision: boolean): number {
  if (selfHosted) return 0;
  const p = pricing ?? UNKNOWN_PRICING;
  return promptTokenEstimate(messages, vision) * p.prompt + maxTokens * p.completion + p.request + sentImages(messages, vision) * p.image;
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

/** The tokens a finished reply used, as the provider reported them; null when it did not. */
export function actualTokens(usage: Usage | null): number | null {
  const { prompt_tokens: prompt, completion_tokens: completion } = usage ?? {};
  return typeof prompt === 'number' && typeof completion === 'number' && prompt >= 0 && completion >= 0 ? Math.ceil(prompt + completion) : null;
}

const utcDay = (t = Date.now()) => new Date(t).toISOString().slice(0, 10);

interface Row {
  reservedMicros: number;
  spentMicros: number;
  reservedTokens: number;
  spentTokens: number;
  requests: number;
  replies: number;
}

export class MemorySpendStore implements SpendStore {
  private rows = new Map<string, Row>();
  constructor(private now: () => number = Date.now) {}

  private row(day: string, scope: string) {
    const key = `${day}|${scope}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { reservedMicros: 0, spentMicros: 0, reservedTokens: 0, spentTokens: 0, requests: 0, replies: 0 }));
    return row;
  }

  async reserve(client: string, estimate: Cost, limits: DayLimits): Promise<ReserveResult> {
    const day = utcDay(this.now());
    for (const key of this.rows.keys()) if (!key.startsWith(day)) this.rows.delete(key);
    const over = (row: Row, limit: DayLimits['site']) =>
      row.reservedMicros + row.spentMicros + estimate.micros > limit.micros ||
      row.reservedTokens + row.spentTokens + estimate.tokens > limit.tokens ||
      row.requests + 1 > limit.requests;
    const site = this.row(day, 'site');
    const mine = this.row(day, client);
    if (over(site, limits.site)) return { ok: false, refusedBy: 'site' };
    if (over(mine, limits.client)) return { ok: false, refusedBy: 'client' };
    for (const row of [site, mine]) {
      row.reservedMicros += estimate.micros;
      row.reservedTokens += estimate.tokens;
      row.requests += 1;
    }
    return { ok: true, reservation: { day, client, estimate } };
  }

  async settle({ day, client, estimate }: Reservation, actual: Cost, replied: boolean): Promise<void> {
    for (const scope of ['site', client]) {
      const row = this.rows.get(`${day}|${scope}`);
      if (!row) continue;
      row.reservedMicros = Math.max(0, row.reservedMicros - estimate.micros);
      row.reservedTokens = Math.max(0, row.reservedTokens - estimate.tokens);
      row.spentMicros += Math.max(0, actual.micros);
      row.spentTokens += Math.max(0, actual.tokens);
      if (replied) row.replies += 1;
    }
  }

  async today(): Promise<DayTotals> {
    const day = utcDay(this.now());
    const row = this.rows.get(`${day}|site`);
    return {
      day,
      spentMicros: row?.spentMicros ?? 0,
      reservedMicros: row?.reservedMicros ?? 0,
      tokens: (row?.spentTokens ?? 0) + (row?.reservedTokens ?? 0),
      requests: row?.requests ?? 0,
      replies: row?.replies ?? 0,
    };
  }
}

type Query = (text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;
const dbQuery: Query = async (text, params) => (await import('../db/index')).query(text, params);

export class SqlSpendStore implements SpendStore {
  constructor(private query: Query = dbQuery) {}

  async reserve(client: string, estimate: Cost, { site, client: share }: DayLimits): Promise<ReserveResult> {
    const scope = client.slice(0, 300);
    const rows = await this.query('select day::text as day, refused from chat_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      scope,
      estimate.micros,
      estimate.tokens,
      site.micros,
      share.micros,
      site.tokens,
      share.tokens,
      site.requests,
      share.requests,
    ]);
    const row = rows[0];
    if (!row) throw new Error('chat_reserve returned no row');
    if (row.refused === 'site' || row.refused === 'client') return { ok: false, refusedBy: row.refused };
    return { ok: true, reservation: { day: String(row.day), client: scope, estimate } };
  }

  async settle({ day, client, estimate }: Reservation, actual: Cost, replied: boolean): Promise<void> {
    await this.query('select chat_settle($1, $2::date, $3, $4, $5, $6, $7)', [
      client,
      day,
      estimate.micros,
      Math.max(0, Math.round(actual.micros)),
      estimate.tokens,
      Math.max(0, Math.round(actual.tokens)),
      replied,
    ]);
  }

  async today(): Promise<DayTotals> {
    const rows = await this.query(
      `select (now() at time zone 'utc')::date::text as day, coalesce(sum(spent_micros), 0)::bigint as spent, coalesce(sum(reserved_micros), 0)::bigint as reserved,
              coalesce(sum(spent_tokens + reserved_tokens), 0)::bigint as tokens, coalesce(sum(requests), 0)::int as requests, coalesce(sum(replies), 0)::int as replies
         from chat_spend where day = (now() at time zone 'utc')::date and scope = 'site'`,
    );
    const row = rows[0] ?? {};
    return {
      day: String(row.day),
      spentMicros: Number(row.spent ?? 0),
      reservedMicros: Number(row.reserved ?? 0),
      tokens: Number(row.tokens ?? 0),
      requests: Number(row.requests ?? 0),
      replies: Number(row.replies ?? 0),
    };
  }
}

/** How long the store stays in memory after a database error before asking the database again. */
export const STORE_COOL_DOWN_MS = 30_000;

/**
 * SQL first. After a store error it counts in memory for a cool-down (STORE_COOL_DOWN_MS), then asks the
 * database again, and goes back to it as soon as it answers. While the database cannot be reached, only
 * requests that cost nothing (free and self-hosted models) go on, under the in-memory day: one that costs money
 * is refused (`unavailable`), because each instance's memory would give it a day of its own.
 */
export class FallbackSpendStore implements SpendStore {
  private failedAt: number | null = null;
  constructor(
    private primary: SpendStore,
    private fallback: SpendStore,
    private warn: (m: string) => void = console.warn,
    private now: () => number = Date.now,
    private coolDownMs: number = STORE_COOL_DOWN_MS,
  ) {}

  /** Whether the database is in its cool-down after an error. */
  get unreachable(): boolean {
    return this.failedAt !== null && this.now() - this.failedAt < this.coolDownMs;
  }

  /** Runs `fn` on the database unless it is cooling down; undefined (and the cool-down starts) when it fails. */
  private async primaryOrUndefined<T>(fn: (s: SpendStore) => Promise<T>): Promise<T | undefined> {
    if (this.unreachable) return undefined;
    try {
      const value = await fn(this.primary);
      if (this.failedAt !== null) this.warn('[chat] spend store reachable again: counting in the database');
      this.failedAt = null;
      return value;
    } catch (error) {
      if (this.failedAt === null) {
        this.warn(`[chat] spend store failed: paid models refused and free ones counted in memory, the database asked again every ${this.coolDownMs / 1000} s: ${(error as Error).message}`);
      }
      this.failedAt = this.now();
      return undefined;
    }
  }

  async reserve(client: string, estimate: Cost, limits: DayLimits): Promise<ReserveResult> {
    const booked = await this.primaryOrUndefined((s) => s.reserve(client, estimate, limits));
    if (booked) return booked;
    if (estimate.micros > 0) return { ok: false, refusedBy: 'unavailable' };
    const local = await this.fallback.reserve(client, estimate, limits);
    return local.ok ? { ok: true, reservation: { ...local.reservation, local: true } } : local;
  }

  async settle(reservation: Reservation, actual: Cost, replied: boolean): Promise<void> {
    // A reservation is settled where it was booked; one booked in SQL waits for no cool-down.
    await (reservation.local ? this.fallback : this.primary).settle(reservation, actual, replied);
  }

  async today(): Promise<DayTotals> {
    return (await this.primaryOrUndefined((s) => s.today())) ?? this.fallback.today();
  }
}

let shared: SpendStore | null = null;

export function sharedSpendStore(env: Record<string, string | undefined> = process.env): SpendStore {
  if (shared) return shared;
  if (!env.DATABASE_URL) console.warn('[chat] DATABASE_URL is not set: the day’s dollars, tokens and requests are counted in memory, per function instance.');
  shared = env.DATABASE_URL ? new FallbackSpendStore(new SqlSpendStore(), new MemorySpendStore()) : new MemorySpendStore();
  return shared;
}
