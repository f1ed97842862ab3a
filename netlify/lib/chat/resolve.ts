import {
  CHAT_MODEL_PICKS,
  DEFAULT_MODEL_ID,
  MAX_OUTPUT_TOKENS,
  pickAsModel,
  type ChatModel,
  type ChatModelPick,
  type Cost,
} from '../../../src/lib/chat/models';

/** One model of a `GET /models` answer, as far as the hub reads it (OpenRouter's shape; others give less). */
export interface CatalogueEntry {
  id: string;
  name?: string;
  created?: number;
  context_length?: number | null;
  pricing?: { prompt?: string; completion?: string; request?: string; image?: string } | null;
  architecture?: { input_modalities?: string[] | null } | null;
  top_provider?: { max_completion_tokens?: number | null; context_length?: number | null } | null;
}

/** Dollars per token, as the catalogue's pricing strings say; null when it does not say. */
export interface Pricing {
  prompt: number;
  completion: number;
  request: number;
  image: number;
}

export interface ResolvedModel extends ChatModel {
  /** Null when the price is unknown (unverified list, or a catalogue without pricing). */
  pricing: Pricing | null;
}

export interface Resolution {
  models: ResolvedModel[];
  defaultModel: string;
  /** True when the list was resolved against a catalogue the provider answered. */
  verified: boolean;
  /** Picks the catalogue no longer lists and that nothing stood in for. */
  dropped: string[];
  /** Picks the catalogue no longer lists, and the model of their family offered instead. */
  replaced: { pick: string; by: string }[];
}

export interface ResolveOptions {
  /** CHAT_MODELS: the operator's own list (ids), offered instead of the picks. */
  pins?: string[];
  /** CHAT_DEFAULT_MODEL. */
  defaultPin?: string;
  /** The endpoint is the operator's own server: every model it lists is offered, labelled self-hosted. */
  selfHosted?: boolean;
}

const num = (value: string | undefined): number | null => {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
};

export function pricingOf(entry: CatalogueEntry): Pricing | null {
  const prompt = num(entry.pricing?.prompt);
  const completion = num(entry.pricing?.completion);
  if (prompt === null || completion === null) return null;
  return { prompt, completion, request: num(entry.pricing?.request) ?? 0, image: num(entry.pricing?.image) ?? 0 };
}

/** Price tier by the reply price per million tokens (replies are most of what a chat costs). */
export function costTier(pricing: Pricing | null): Exclude<Cost, 'Self-hosted'> | null {
  if (!pricing) return null;
  if (pricing.prompt === 0 && pricing.completion === 0 && pricing.request === 0) return 'Free';
  const perMillion = pricing.completion * 1_000_000;
  if (perMillion <= 2) return '$';
  if (perMillion <= 10) return '$$';
  if (perMillion <= 30) return '$$$';
  return '$$$$';
}

function fromEntry(entry: CatalogueEntry, labels: Pick<ChatModel, 'name' | 'speed' | 'quality'> | null, selfHosted: boolean, fallback?: ChatModelPick): ResolvedModel {
  const pricing = selfHosted ? null : pricingOf(entry);
  const cost: Cost = selfHosted ? 'Self-hosted' : (costTier(pricing) ?? fallback?.cost ?? '$$$$');
  const modalities = entry.architecture?.input_modalities;
  const vision = Array.isArray(modalities) ? modalities.includes('image') : (fallback?.vision ?? false);
  const providerMax = entry.top_provider?.max_completion_tokens;
  const cap = MAX_OUTPUT_TOKENS[cost];
  const contextLength = entry.context_length ?? entry.top_provider?.context_length ?? null;
  return {
    id: entry.id,
    name: labels?.name ?? entry.name ?? entry.id,
    speed: labels?.speed ?? null,
    quality: labels?.quality ?? null,
    cost,
    vision,
    contextLength: typeof contextLength === 'number' && contextLength > 0 ? contextLength : null,
    maxOutputTokens: typeof providerMax === 'number' && providerMax > 0 ? Math.min(cap, providerMax) : cap,
    pricing,
  };
}

function familyMatch(pick: ChatModelPick, catalogue: CatalogueEntry[], taken: Set<string>): CatalogueEntry | undefined {
  if (!pick.family) return undefined;
  const pattern = new RegExp(pick.family);
  return catalogue
    .filter((e) => pattern.test(e.id) && !taken.has(e.id))
    .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))[0];
}

/**
 * The models the hub offers. Rules, in order:
 *  - a self-hosted endpoint offers every model it lists (or the pinned ones it lists);
 *  - pins (CHAT_MODELS) replace the picks: each pinned id the catalogue lists is offered, the rest dropped;
 *  - otherwise each pick is offered if listed, else the newest listed model of its family not offered yet
 *    (named as the catalogue names it), else dropped;
 *  - without a catalogue (null) the picks or pins are offered as written, unverified.
 * The default is CHAT_DEFAULT_MODEL if offered, else the preferred large Anthropic model (or what stood in
 * for it), else the first Anthropic model, else the first model.
 */
export function resolveModels(catalogue: CatalogueEntry[] | null, options: ResolveOptions = {}): Resolution {
  const picks = CHAT_MODEL_PICKS as readonly ChatModelPick[];
  const pins = options.pins?.length ? options.pins : null;
  const dropped: string[] = [];
  const replaced: { pick: string; by: string }[] = [];
  let models: ResolvedModel[];

  if (catalogue === null) {
    const wanted = pins ?? picks.map((p) => p.id);
    models = wanted.map((id) => {
      const pick = picks.find((p) => p.id === id);
      if (pick) return { ...pickAsModel(pick), pricing: null };
      return fromEntry({ id }, null, options.selfHosted === true);
    });
  } else {
    const byId = new Map(catalogue.map((e) => [e.id, e]));
    if (options.selfHosted) {
      const listed = pins ? pins.filter((id) => byId.has(id)) : catalogue.map((e) => e.id);
      if (pins) dropped.push(...pins.filter((id) => !byId.has(id)));
      models = listed.map((id) => fromEntry(byId.get(id)!, null, true));
    } else if (pins) {
      models = [];
      for (const id of pins) {
        const entry = byId.get(id);
        const pick = picks.find((p) => p.id === id);
        if (entry) models.push(fromEntry(entry, pick ?? null, false, pick));
        else dropped.push(id);
      }
    } else {
      const taken = new Set(picks.filter((p) => byId.has(p.id)).map((p) => p.id));
      models = [];
      for (const pick of picks) {
        const exact = byId.get(pick.id);
        if (exact) {
          models.push(fromEntry(exact, pick, false, pick));
          continue;
        }
        const standIn = familyMatch(pick, catalogue, taken);
        if (standIn) {
          taken.add(standIn.id);
          replaced.push({ pick: pick.id, by: standIn.id });
          models.push(fromEntry(standIn, { name: standIn.name ?? standIn.id, speed: pick.speed, quality: pick.quality }, false, pick));
        } else dropped.push(pick.id);
      }
    }
  }

  return { models, defaultModel: chooseDefault(models, options.defaultPin, replaced), verified: catalogue !== null, dropped, replaced };
}

function chooseDefault(models: ChatModel[], pin: string | undefined, replaced: { pick: string; by: string }[]): string {
  const offered = (id: string | undefined) => (id && models.some((m) => m.id === id) ? id : undefined);
  return (
    offered(pin) ??
    offered(DEFAULT_MODEL_ID) ??
    offered(replaced.find((r) => r.pick === DEFAULT_MODEL_ID)?.by) ??
    models.find((m) => m.id.startsWith('anthropic/'))?.id ??
    models[0]?.id ??
    ''
  );
}
