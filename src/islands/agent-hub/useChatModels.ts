import { useCallback, useEffect, useState } from 'react';
import type { ChatModelsResponse } from '../../lib/chat/models';
import { fetchChatModels } from './api';

/** The model list from GET /api/chat/models (null while it loads), and `reload` for after the server refreshed it. */
export function useChatModels(): { models: ChatModelsResponse | null; reload: () => void } {
  const [data, setData] = useState<ChatModelsResponse | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchChatModels(controller.signal).then(setData, () => {});
    return () => controller.abort();
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { models: data, reload };
}
