/**
 * The chat models offered in the hub (a large Anthropic model by default, six free ones) with OpenRouter
 * ids; copy that counts them reads CHAT_MODEL_COUNT. `vision` marks the only models that receive images.
 */
export type Speed = 'Fast' | 'Medium' | 'Slow';
export type Quality = 'Excellent' | 'Very good' | 'Good';
export type Cost = 'Free' | '$' | '$$' | '$$$' | '$$$$';

export interface ChatModel {
  id: string;
  name: string;
  speed: Speed;
  quality: Quality;
  cost: Cost;
  vision: boolean;
}

export const CHAT_MODELS = [
  { id: 'anthropic/claude-3-opus', name: 'Claude 3 Opus', speed: 'Slow', quality: 'Excellent', cost: '$$$$', vision: true },
  { id: 'anthropic/claude-3.5-sonnet', name: 'Claude 3.5 Sonnet', speed: 'Medium', quality: 'Excellent', cost: '$$$', vision: false },
  { id: 'anthropic/claude-3-sonnet', name: 'Claude 3 Sonnet', speed: 'Medium', quality: 'Very good', cost: '$$$', vision: true },
  { id: 'anthropic/claude-3.5-haiku', name: 'Claude 3.5 Haiku', speed: 'Fast', quality: 'Very good', cost: '$$', vision: true },
  { id: 'anthropic/claude-3-haiku', name: 'Claude 3 Haiku', speed: 'Fast', quality: 'Good', cost: '$', vision: true },
  { id: 'openai/gpt-4o', name: 'GPT-4o', speed: 'Medium', quality: 'Excellent', cost: '$$$', vision: true },
  { id: 'openai/gpt-4o-mini', name: 'GPT-4o Mini', speed: 'Fast', quality: 'Very good', cost: '$', vision: false },
  { id: 'openai/gpt-4-turbo', name: 'GPT-4 Turbo', speed: 'Medium', quality: 'Excellent', cost: '$$$$', vision: false },
  { id: 'openai/gpt-3.5-turbo', name: 'GPT-3.5 Turbo', speed: 'Fast', quality: 'Good', cost: '$', vision: false },
  { id: 'google/gemini-2.0-flash-001', name: 'Gemini 2.0 Flash', speed: 'Fast', quality: 'Very good', cost: '$', vision: false },
  { id: 'meta-llama/llama-3.1-405b-instruct', name: 'Llama 3.1 405B Instruct', speed: 'Slow', quality: 'Excellent', cost: '$$$', vision: false },
  { id: 'meta-llama/llama-3.3-70b-instruct', name: 'Llama 3.3 70B Instruct', speed: 'Medium', quality: 'Very good', cost: '$', vision: false },
  { id: 'mistralai/mistral-large', name: 'Mistral Large', speed: 'Medium', quality: 'Very good', cost: '$$$', vision: false },
  { id: 'google/gemma-3-27b-it:free', name: 'Gemma 3 27B (free)', speed: 'Medium', quality: 'Good', cost: 'Free', vision: false },
  { id: 'mistralai/mistral-small-3.1-24b-instruct:free', name: 'Mistral Small 3.1 24B (free)', speed: 'Fast', quality: 'Good', cost: 'Free', vision: false },
  { id: 'deepseek/deepseek-v3-base:free', name: 'DeepSeek V3 Base (free)', speed: 'Medium', quality: 'Good', cost: 'Free', vision: false },
  { id: 'qwen/qwen2.5-vl-3b-instruct:free', name: 'Qwen 2.5 VL 3B (free)', speed: 'Fast', quality: 'Good', cost: 'Free', vision: true },
  { id: 'bytedance-research/ui-tars-72b:free', name: 'UI-TARS 72B (free)', speed: 'Slow', quality: 'Good', cost: 'Free', vision: false },
  { id: 'qwen/qwq-32b:free', name: 'Qwen QwQ 32B (free)', speed: 'Slow', quality: 'Very good', cost: 'Free', vision: false },
] as const satisfies readonly ChatModel[];

export type ChatModelId = (typeof CHAT_MODELS)[number]['id'];

/** How many models the hub offers, for page copy (never written out by hand). */
export const CHAT_MODEL_COUNT = CHAT_MODELS.length;

export const MODEL_IDS = CHAT_MODELS.map((m) => m.id) as [ChatModelId, ...ChatModelId[]];

/** The default: a large Anthropic model. */
export const DEFAULT_MODEL_ID: ChatModelId = 'anthropic/claude-3-opus';

export function findModel(id: string): ChatModel | undefined {
  return CHAT_MODELS.find((m) => m.id === id);
}

export function isVisionModel(id: string): boolean {
  return findModel(id)?.vision === true;
}

/** What GET /api/chat/models answers. */
export interface ChatModelsResponse {
  models: ChatModel[];
  defaultModel: ChatModelId;
  configured: boolean;
  /** Present when `configured` is false: the text the hub shows instead of the selector. */
  message?: string;
}

/**
 * The most tokens a reply may have, by the model's price tier: the dearer the model, the shorter the cap,
 * so one request can never cost more than a bounded amount on the operator's key.
 */
export const MAX_OUTPUT_TOKENS: Record<Cost, number> = { Free: 4096, $: 4096, $$: 2048, $$$: 2048, $$$$: 1024 };

export function maxOutputTokens(modelId: string): number {
  const model = (CHAT_MODELS as readonly ChatModel[]).find((m) => m.id === modelId);
  return MAX_OUTPUT_TOKENS[model?.cost ?? '$$$$'];
}
