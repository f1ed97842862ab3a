import { CHAT_MODELS, DEFAULT_MODEL_ID, type ChatModelsResponse } from '../../../src/lib/chat/models';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { logChatSetupHint, readChatConfig, type ChatConfig } from './config';
import { errorJson, json } from '../http';

/** GET /api/chat/models: the selectable models and whether the chat proxy has a key. */
export function createModelsHandler(getConfig: () => ChatConfig = () => readChatConfig()) {
  return async (req: Request): Promise<Response> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return errorJson(405, 'Use GET to list chat models.', { allow: 'GET, HEAD' });
    }
    const configured = getConfig().apiKey !== null;
    if (!configured) logChatSetupHint();
    const body: ChatModelsResponse = {
      models: [...CHAT_MODELS],
      defaultModel: DEFAULT_MODEL_ID,
      configured,
      ...(configured ? {} : { message: CHAT_ERRORS.notConfigured }),
    };
    return json(body);
  };
}
