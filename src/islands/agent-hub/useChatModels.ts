import { useCallback, useEffect, useState } from 'react';
import type { ChatModelsResponse } from '../../lib/chat/models';
import { fetchChatModels } from './api';

/**
 * The model list from GET /api/chat/models (null while it loads); `reload(list?)` takes the list the server
 * sent with a refusal, or fetches it again.
 */
export function useChatModels(): { models: ChatModelsResponse | null; reload: (list?: ChatModelsResponse) => void } {
  const [data, setData] = useState<ChatModelsResponse | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchChatModels(controller.signal).then(setData, () => {});
    return () => controller.abort();
  }, [generation]);
  const reload = useCallback((list?: ChatModelsResponse) => (list ? setData(list) : setGeneration((g) => g + 1)), []);
  return { models: data, reload };
}
