import { z } from '../zod';

/**
 * The hub's curated model picks and the shape of the list GET /api/chat/models answers.
 *
 * Picks are preferences, not a promise: the server resolves them against the provider's live catalogue
 * (netlify/lib/chat/resolve.ts). A pick the catalogue lists is offered as it is; one it no longer lists is
 * replaced by the newest catalogue model of the same `family` (a pattern on the id) that is not offered
 * already, else dropped. Speed and quality are the curators' judgement (the catalogue has neither); cost,
 * vision, context and the reply cap come from the catalogue. The `cost` and `vision` written here are used
 * only while the catalogue cannot be read (the list is then marked unverified).
 */
const speedSchema = z.enum(['Fast', 'Medium', 'Slow']);
const qualitySchema = z.enum(['Excellent', 'Very good', 'Good']);
/** Price tier from the catalogue's pricing; `Self-hosted` for a model on the operator's own server. */
const costSchema = z.enum(['Free', '$', '$$', '$$$', '$$$$', 'Self-hosted']);
export type Speed = z.infer<typeof speedSchema>;
export type Quality = z.infer<typeof qualitySchema>;
export type Cost = z.infer<typeof costSchema>;

export interface ChatModelPick {
  id: string;
  name: string;
  /** A regular expression on catalogue ids: the models that may stand in for this pick when it is gone. */
  family?: string;
  speed: Speed;
  quality: Quality;
  cost: Exclude<Cost, 'Self-hosted'>;
  vision: boolean;
}

/** A model as the hub offers it. */
export const chatModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  speed: speedSchema.nullable(),
  quality: qualitySchema.nullable(),
  cost: costSchema,
  /** Receives images (the catalogue lists `image` among its input modalities). */
  vision: z.boolean(),
  /** Context window in tokens, when the catalogue says. */
  contextLength: z.number().nullable(),
  /** The most tokens a reply may have: the price tier's cap, never above the provider's own maximum. */
  maxOutputTokens: z.number().int(),
});
export type ChatModel = z.infer<typeof chatModelSchema>;

export const CHAT_MODEL_PICKS = [
  { id: 'anthropic/claude-opus-4.5', name: 'Claude Opus 4.5', family: '^anthropic/claude-opus-\\d+(\\.\\d+)?$', speed: 'Slow', quality: 'Excellent', cost: '$$$', vision: true },
  { id: 'anthropic/claude-sonnet-4.5', name: 'Claude Sonnet 4.5', family: '^anthropic/claude-sonnet-\\d+(\\.\\d+)?$', speed: 'Medium', quality: 'Excellent', cost: '$$$', vision: true },
  { id: 'anthropic/claude-haiku-4.5', name: 'Claude Haiku 4.5', family: '^anthropic/claude-haiku-\\d+(\\.\\d+)?$', speed: 'Fast', quality: 'Very good', cost: '$$', vision: true },
  { id: 'openai/gpt-5', name: 'GPT-5', family: '^openai/gpt-\\d+(\\.\\d+)?$', speed: 'Medium', quality: 'Excellent', cost: '$$', vision: true },
  { id: 'openai/gpt-5-mini', name: 'GPT-5 Mini', family: '^openai/gpt-\\d+(\\.\\d+)?-mini$', speed: 'Fast', quality: 'Very good', cost: '$', vision: true },
  { id: 'openai/gpt-4o', name: 'GPT-4o', speed: 'Medium', quality: 'Very good', cost: '$$', vision: true },
  { id: 'openai/gpt-4o-mini', name: 'GPT-4o Mini', speed: 'Fast', quality: 'Good', cost: '$', vision: true },
  { id: 'google/gemini-2.5-pro', name: 'Gemini 2.5 Pro', family: '^google/gemini-\\d+(\\.\\d+)?-pro$', speed: 'Medium', quality: 'Excellent', cost: '$$', vision: true },
  { id: 'google/gemini-2.5-flash', name: 'Gemini 2.5 Flash', family: '^google/gemini-\\d+(\\.\\d+)?-flash$', speed: 'Fast', quality: 'Very good', cost: '$', vision: true },
  { id: 'meta-llama/llama-4-maverick', name: 'Llama 4 Maverick', family: '^meta-llama/llama-\\d+(\\.\\d+)?-maverick$', speed: 'Fast', quality: 'Very good', cost: '$', vision: true },
  { id: 'meta-llama/llama-3.3-70b-instruct', name: 'Llama 3.3 70B Instruct', speed: 'Medium', quality: 'Good', cost: '$', vision: false },
  { id: 'mistralai/mistral-large', name: 'Mistral Large', family: '^mistralai/mistral-large(-\\d+)?$', speed: 'Medium', quality: 'Very good', cost: '$$$', vision: false },
  { id: 'mistralai/mistral-medium-3.1', name: 'Mistral Medium 3.1', family: '^mistralai/mistral-medium(-\\d+(\\.\\d+)?)?$', speed: 'Fast', quality: 'Very good', cost: '$', vision: true },
  { id: 'deepseek/deepseek-chat-v3.1', name: 'DeepSeek V3.1', family: '^deepseek/deepseek-(chat-)?v\\d+(\\.\\d+)?$', speed: 'Medium', quality: 'Very good', cost: '$', vision: false },
  { id: 'qwen/qwen3-235b-a22b-2507', name: 'Qwen3 235B', family: '^qwen/qwen3-235b-a22b(-\\d+)?$', speed: 'Medium', quality: 'Very good', cost: '$', vision: false },
  { id: 'meta-llama/llama-3.3-70b-instruct:free', name: 'Llama 3.3 70B (free)', speed: 'Medium', quality: 'Good', cost: 'Free', vision: false },
  { id: 'deepseek/deepseek-r1-0528:free', name: 'DeepSeek R1 (free)', family: '^deepseek/deepseek-r1(-\\d+)?:free$', speed: 'Slow', quality: 'Very good', cost: 'Free', vision: false },
  { id: 'qwen/qwen3-235b-a22b:free', name: 'Qwen3 235B (free)', family: '^qwen/qwen3-235b-a22b(-\\d+)?:free$', speed: 'Medium', quality: 'Good', cost: 'Free', vision: false },
  { id: 'mistralai/mistral-small-3.2-24b-instruct:free', name: 'Mistral Small 3.2 24B (free)', family: '^mistralai/mistral-small-\\d+(\\.\\d+)?-24b-instruct(-\\d+)?:free$', speed: 'Fast', quality: 'Good', cost: 'Free', vision: true },
] as const satisfies readonly ChatModelPick[];

/** How many models the hub offers, for page copy (never written out by hand). */
export const CHAT_MODEL_COUNT = CHAT_MODEL_PICKS.length;

/**
 * The preferred default: a large Anthropic model. If the catalogue lacks it, its family's newest member
 * stands in; failing that, the first Anthropic model offered.
 */
export const DEFAULT_MODEL_ID = 'anthropic/claude-opus-4.5';

/**
 * The most tokens a reply may have, by the model's price tier: the dearer the model, the shorter the cap,
 * so one request can never cost more than a bounded amount on the operator's key.
 */
export const MAX_OUTPUT_TOKENS: Record<Cost, number> = { Free: 4096, $: 4096, $$: 2048, $$$: 2048, $$$$: 1024, 'Self-hosted': 4096 };

/** The reply cap of a curated pick by its written tier (the dearest tier for anything else). */
export function maxOutputTokens(modelId: string): number {
  const pick = (CHAT_MODEL_PICKS as readonly ChatModelPick[]).find((m) => m.id === modelId);
  return MAX_OUTPUT_TOKENS[pick?.cost ?? '$$$$'];
}

/** A pick as offered while the catalogue cannot be read: its written labels, unverified. */
export function pickAsModel(pick: ChatModelPick): ChatModel {
  const { id, name, speed, quality, cost, vision } = pick;
  return { id, name, speed, quality, cost, vision, contextLength: null, maxOutputTokens: MAX_OUTPUT_TOKENS[cost] };
}

/** What GET /api/chat/models answers (the island reads it with this schema: src/lib/chat/hub-api.ts). */
export const chatModelsResponseSchema = z.object({
  models: z.array(chatModelSchema),
  defaultModel: z.string(),
  configured: z.boolean(),
  /** False while the provider's catalogue could not be read: the curated list is shown as it is written. */
  verified: z.boolean(),
  /** Present when `configured` is false: the text the hub shows instead of the selector. */
  message: z.string().optional(),
});
export type ChatModelsResponse = z.infer<typeof chatModelsResponseSchema>;

/**
 * A refusal of POST /api/chat (its reply is a stream, ./stream-protocol.ts): the chat's words (./errors.ts), and with a
 * 409 (the model is no longer served) the list as it is now.
 */
export const chatRefusalSchema = z.object({ success: z.literal(false), error: z.string(), models: chatModelsResponseSchema.optional() });
export type ChatRefusal = z.infer<typeof chatRefusalSchema>;

/** One line of the model picker: name, then the labels the model has. */
export function modelLabel(m: ChatModel): string {
  const context = m.contextLength ? `${Math.round(m.contextLength / 1000)}k context` : null;
  return [m.name, m.speed, m.quality, m.cost, context, m.vision ? 'reads images' : null].filter(Boolean).join(' · ');
}
