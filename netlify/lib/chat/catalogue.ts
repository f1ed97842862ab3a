import { z } from '../../../src/lib/zod';
import { readCapped } from '../read-capped';
import type { ChatConfig } from './config';
import { resolveModels, type CatalogueEntry, type Resolution } from './resolve';

/**
 * The provider's live model list (`GET {CHAT_API_BASE_URL}/models`), fetched by the server and cached:
 * in the database when DATABASE_URL is set, so every function instance shares one copy and one refresh an
 * hour, and in this instance's memory. The last good copy is kept: a failed refresh serves it (stale)
 * rather than nothing. Without any copy the curated picks are served, marked unverified.
 */
export interface CatalogueCopy {
  entries: CatalogueEntry[];
  fetchedAt: number;
}

export interface CatalogueStore {
  read(baseUrl: string): Promise<CatalogueCopy | null>;
  write(baseUrl: string, copy: CatalogueCopy): Promise<void>;
}

export interface CatalogueState {
  entries: CatalogueEntry[] | null;
  fetchedAt: number | null;
  /** The copy is older than the TTL: the last refresh failed. */
  stale: boolean;
  /** Why the last refresh failed (for the operator: logs and /api/health). */
  lastError: string | null;
}

const MAX_CATALOGUE_BYTES = 20 * 1024 * 1024;
/** How long this instance trusts its memory before it looks at the shared copy again (a refresh elsewhere). */
const MEMORY_CHECK_MS = 5_000;
/** After a failed fetch, how long before the provider is asked again (the last copy is served meanwhile). */
const RETRY_AFTER_FAILURE_MS = 60_000;

const entrySchema = z.looseObject({
  id: z.string().min(1).max(300),
  name: z.string().max(300).optional().catch(undefined),
  created: z.number().optional().catch(undefined),
  context_length: z.number().nullish().catch(null),
  pricing: z
    .looseObject({ prompt: z.string().optional(), completion: z.string().optional(), request: z.string().optional(), image: z.string().optional() })
    .nullish()
    .catch(null),
  architecture: z.looseObject({ input_modalities: z.array(z.string()).nullish() }).nullish().catch(null),
  top_provider: z.looseObject({ max_completion_tokens: z.number().nullish(), context_length: z.number().nullish() }).nullish().catch(null),
});
const catalogueSchema = z.looseObject({ data: z.array(z.unknown()).max(10_000) });

/** Only what the hub reads is kept (descriptions are most of OpenRouter's answer). */
function trim(raw: z.infer<typeof entrySchema>): CatalogueEntry {
  const { id, name, created, context_length, pricing, architecture, top_provider } = raw;
  return {
    id,
    ...(name ? { name } : {}),
    ...(created ? { created } : {}),
    ...(context_length ? { context_length } : {}),
    ...(pricing ? { pricing: { prompt: pricing.prompt, completion: pricing.completion, request: pricing.request, image: pricing.image } } : {}),
    ...(architecture?.input_modalities ? { architecture: { input_modalities: architecture.input_modalities } } : {}),
    ...(top_provider ? { top_provider: { max_completion_tokens: top_provider.max_completion_tokens ?? null, context_length: top_provider.context_length ?? null } } : {}),
  };
}

export function parseCatalogue(body: unknown): CatalogueEntry[] {
  const parsed = catalogueSchema.parse(body);
  const entries: CatalogueEntry[] = [];
  for (const item of parsed.data) {
    const entry = entrySchema.safeParse(item);
    if (entry.success) entries.push(trim(entry.data));
  }
  if (entries.length === 0) throw new Error('the catalogue lists no models');
  return entries;
}

export async function fetchCatalogue(config: ChatConfig): Promise<CatalogueEntry[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.min(config.firstByteTimeoutMs, 15_000));
  try {
    const res = await fetch(`${config.baseUrl}/models`, {
      headers: {
        accept: 'application/json',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        'HTTP-Referer': config.siteUrl,
        'X-Title': config.appTitle,
      },
      signal: controller.signal,
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`GET /models answered ${res.status}`);
    }
    const bytes = await readCapped(res.body, res.headers.get('content-length'), MAX_CATALOGUE_BYTES, () => new Error('the catalogue is too large'));
    return parseCatalogue(JSON.parse(bytes.toString('utf8')));
  } catch (error) {
    throw new Error(controller.signal.aborted ? 'GET /models timed out' : (error as Error).message, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** The shared copy: one row per endpoint in `chat_catalogue`. */
export function sqlCatalogueStore(): CatalogueStore {
  const q = async (text: string, params: unknown[]) => (await import('../db/index')).query(text, params);
  return {
    async read(baseUrl) {
      const rows = await q('select entries, extract(epoch from fetched_at) * 1000 as fetched_at from chat_catalogue where base_url = $1', [baseUrl]);
      const row = rows[0];
      return row ? { entries: row.entries as CatalogueEntry[], fetchedAt: Number(row.fetched_at) } : null;
    },
    async write(baseUrl, copy) {
      await q(
        `insert into chat_catalogue (base_url, entries, fetched_at) values ($1, $2::jsonb, to_timestamp($3 / 1000.0))
         on conflict (base_url) do update set entries = excluded.entries, fetched_at = excluded.fetched_at`,
        [baseUrl, JSON.stringify(copy.entries), copy.fetchedAt],
      );
    },
  };
}

interface Memo extends CatalogueCopy {
  checkedAt: number;
}

export interface CatalogueDeps {
  store?: CatalogueStore | null;
  fetch?: (config: ChatConfig) => Promise<CatalogueEntry[]>;
  now?: () => number;
  warn?: (message: string) => void;
}

/** One catalogue per process, per endpoint; tests make their own with createCatalogue(). */
export function createCatalogue(deps: CatalogueDeps = {}) {
  const now = deps.now ?? Date.now;
  const load = deps.fetch ?? fetchCatalogue;
  const warn = deps.warn ?? ((m: string) => console.warn(m));
  const memos = new Map<string, Memo>();
  const failures = new Map<string, { at: number; error: string }>();
  const invalidated = new Set<string>();
  let storeBroken = false;

  const store = (): CatalogueStore | null => {
    if (storeBroken) return null;
    if (deps.store !== undefined) return deps.store;
    return process.env.DATABASE_URL ? sqlCatalogueStore() : null;
  };
  const guarded = async <T>(fn: (s: CatalogueStore) => Promise<T>): Promise<T | null> => {
    const s = store();
    if (!s) return null;
    try {
      return await fn(s);
    } catch (error) {
      storeBroken = true;
      warn(`[chat] catalogue store failed, keeping the catalogue in memory: ${(error as Error).message}`);
      return null;
    }
  };

  async function refresh(config: ChatConfig, memo: Memo | undefined): Promise<CatalogueState> {
    const key = config.baseUrl;
    try {
      const entries = await load(config);
      const copy = { entries, fetchedAt: now() };
      memos.set(key, { ...copy, checkedAt: now() });
      failures.delete(key);
      invalidated.delete(key);
      await guarded((s) => s.write(key, copy));
      return { entries, fetchedAt: copy.fetchedAt, stale: false, lastError: null };
    } catch (error) {
      const message = (error as Error).message;
      if (!failures.has(key)) warn(`[chat] could not read the model catalogue at ${key}/models: ${message}`);
      failures.set(key, { at: now(), error: message });
      if (memo) memos.set(key, { ...memo, checkedAt: now() });
      return { entries: memo?.entries ?? null, fetchedAt: memo?.fetchedAt ?? null, stale: memo !== undefined, lastError: message };
    }
  }

  /** The catalogue for `config`'s endpoint: memory, else the shared copy, else the provider. */
  async function get(config: ChatConfig): Promise<CatalogueState> {
    const key = config.baseUrl;
    const ttl = config.catalogueTtlSeconds * 1000;
    const t = now();
    let memo = memos.get(key);
    const failure = failures.get(key);
    const fresh = (copy: CatalogueCopy | undefined | null) => copy !== null && copy !== undefined && t - copy.fetchedAt < ttl;
    const state = (copy: CatalogueCopy): CatalogueState => ({ entries: copy.entries, fetchedAt: copy.fetchedAt, stale: !fresh(copy), lastError: failure?.error ?? null });

    if (!invalidated.has(key)) {
      if (memo && fresh(memo) && t - memo.checkedAt < MEMORY_CHECK_MS) return state(memo);
      const shared = await guarded((s) => s.read(key));
      if (shared && (!memo || shared.fetchedAt >= memo.fetchedAt)) {
        memo = { ...shared, checkedAt: t };
        memos.set(key, memo);
      } else if (memo) memos.set(key, (memo = { ...memo, checkedAt: t }));
      if (memo && fresh(memo)) return state(memo);
    }
    // A provider that just failed is not asked again for a minute; the last copy (or none) is served.
    if (failure && t - failure.at < RETRY_AFTER_FAILURE_MS && !invalidated.has(key)) {
      return { entries: memo?.entries ?? null, fetchedAt: memo?.fetchedAt ?? null, stale: memo !== undefined, lastError: failure.error };
    }
    return refresh(config, memo);
  }

  return {
    get,
    /** The provider refused a model it was offered: the next look fetches the catalogue again. */
    invalidate(config: ChatConfig) {
      invalidated.add(config.baseUrl);
      failures.delete(config.baseUrl);
    },
    /** Fetches now, whatever the age of the copy (after a rejection). */
    refresh: (config: ChatConfig) => refresh(config, memos.get(config.baseUrl)),
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;

let shared: Catalogue | null = null;
export function sharedCatalogue(): Catalogue {
  return (shared ??= createCatalogue());
}

export interface ResolvedCatalogue extends Resolution {
  fetchedAt: number | null;
  stale: boolean;
  lastError: string | null;
}

/** The models the hub offers now, for `config` (the curated list, unverified, without a catalogue to ask). */
export async function resolvedCatalogue(config: ChatConfig, catalogue: Catalogue | null = sharedCatalogue()): Promise<ResolvedCatalogue> {
  const state: CatalogueState = catalogue ? await catalogue.get(config) : { entries: null, fetchedAt: null, stale: false, lastError: null };
  const resolution = resolveModels(state.entries, { pins: config.pins, defaultPin: config.defaultPin, selfHosted: config.selfHosted });
  return { ...resolution, fetchedAt: state.fetchedAt, stale: state.stale, lastError: state.lastError };
}
