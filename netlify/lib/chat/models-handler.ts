import type { ChatModel, ChatModelsResponse } from '../../../src/lib/chat/models';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { resolvedCatalogue, sharedCatalogue, type Catalogue, type ResolvedCatalogue } from './catalogue';
import { logChatSetupHint, readChatConfig, type ChatConfig } from './config';
import { errorJson, json } from '../http';
import type { ResolvedModel } from './resolve';

/** The model as the browser sees it (prices stay on the server: the labels say enough). */
export const publicModel = ({ pricing: _pricing, ...model }: ResolvedModel): ChatModel => model;

/** What GET /api/chat/models answers for a resolution (also sent with a 409 when a model went away). */
export function modelsBody(config: ChatConfig, offered: ResolvedCatalogue): ChatModelsResponse {
  return {
    models: offered.models.map(publicModel),
    defaultModel: offered.defaultModel,
    configured: config.configured,
    verified: offered.verified,
    ...(config.configured ? {} : { message: CHAT_ERRORS.notConfigured }),
  };
}

/** GET /api/chat/models: the models offered now (the resolved catalogue) and whether chat is configured. */
export function createModelsHandler(getConfig: () => ChatConfig = () => readChatConfig(), getCatalogue: () => Catalogue = sharedCatalogue) {
  return async (req: Request): Promise<Response> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return errorJson(405, 'Use GET to list chat models.', { allow: 'GET, HEAD' });
    }
    const config = getConfig();
    if (!config.configured) logChatSetupHint();
    // Without a key the provider is not asked: the curated list shows what the hub would offer.
    const offered = await resolvedCatalogue(config, config.configured ? getCatalogue() : null);
    return json(modelsBody(config, offered));
  };
}
