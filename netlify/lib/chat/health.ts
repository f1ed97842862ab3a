import { resolvedCatalogue, sharedCatalogue, type Catalogue } from './catalogue';
import { CHAT_SETUP_HINT, readChatConfig, type ChatConfig } from './config';
import { MICROS, sharedSpendStore, type SpendStore } from './spend';

/**
 * The chat's section of the operator's GET /api/health: whether it is on, which endpoint it uses, what the
 * catalogue resolved to (models offered, picks dropped or replaced, the last refresh) and today's spend
 * (dollars, tokens and requests against their budgets).
 */
export interface ChatHealth {
  configured: boolean;
  hint?: string;
  endpoint?: string;
  selfHosted?: boolean;
  catalogue?: {
    verified: boolean;
    stale: boolean;
    lastRefresh: string | null;
    lastError: string | null;
    models: number;
    defaultModel: string;
    dropped: string[];
    replaced: { pick: string; by: string }[];
  };
  spend?:
    | {
        day: string;
        spentUsd: number;
        reservedUsd: number;
        tokens: number;
        requests: number;
        replies: number;
        budgetUsd: number;
        budgetTokens: number;
        budgetRequests: number;
        clientShare: number;
      }
    | { error: string };
}

export async function chatHealth(
  config: ChatConfig = readChatConfig(),
  catalogue: Catalogue = sharedCatalogue(),
  spend: SpendStore = sharedSpendStore(),
): Promise<ChatHealth> {
  if (!config.configured) return { configured: false, hint: CHAT_SETUP_HINT };
  const offered = await resolvedCatalogue(config, catalogue);
  let spent: ChatHealth['spend'];
  try {
    const today = await spend.today();
    spent = {
      day: today.day,
      spentUsd: today.spentMicros / MICROS,
      reservedUsd: today.reservedMicros / MICROS,
      tokens: today.tokens,
      requests: today.requests,
      replies: today.replies,
      budgetUsd: config.dailyBudget.usd,
      budgetTokens: config.dailyBudget.tokens,
      budgetRequests: config.dailyBudget.requests,
      clientShare: config.dailyBudget.clientShare,
    };
  } catch (error) {
    spent = { error: (error as Error).message };
  }
  return {
    configured: true,
    endpoint: config.baseUrl,
    selfHosted: config.selfHosted,
    catalogue: {
      verified: offered.verified,
      stale: offered.stale,
      lastRefresh: offered.fetchedAt ? new Date(offered.fetchedAt).toISOString() : null,
      lastError: offered.lastError,
      models: offered.models.length,
      defaultModel: offered.defaultModel,
      dropped: offered.dropped,
      replaced: offered.replaced,
    },
    spend: spent,
  };
}
