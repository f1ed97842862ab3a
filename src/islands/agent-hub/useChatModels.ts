import { useEffect, useState } from 'react';
import type { ChatModelsResponse } from '../../lib/chat/models';
import { fetchChatModels } from './api';

/** The model list from GET /api/chat/models; null while it loads. */
export function useChatModels(): ChatModelsResponse | null {
  const [data, setData] = useState<ChatModelsResponse | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchChatModels(controller.signal).then(setData, () => {});
    return () => controller.abort();
  }, []);
  return data;
}
