import { useCallback, useEffect, useRef, useState } from 'react';
import type { Agent } from '../../lib/chat/agents';
import { uploadDataUrl } from '../../lib/chat/attachments';
import { requestMessages, type ConversationMessage } from '../../lib/chat/conversation';
import { isVisionModel } from '../../lib/chat/models';
import type { SamplingSettings } from '../../lib/chat/request-limits';
import { MSG } from '../../lib/messages';
import { toast } from '../../lib/toast';
import { ChatRequestError, streamChat } from './api';
import type { AttachedFile } from './files';
import { loadConversation, saveConversation } from './storage';

interface SendOptions {
  text: string;
  model: string;
  settings: SamplingSettings;
  attachment: AttachedFile | null;
}

/**
 * One agent's conversation: kept in sessionStorage, extended by streamed replies. `draft` is the reply
 * in progress ('' = Thinking...). Resolves `send` with true when the reply completed.
 */
export function useChat(agent: Agent) {
  const [messages, setMessages] = useState<ConversationMessage[]>(() => loadConversation(agent));
  const [draft, setDraft] = useState<string | null>(null);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => saveConversation(agent.id, messages), [agent.id, messages]);
  // Leaving the chat (back button) stops a reply nobody is reading.
  useEffect(() => () => controllerRef.current?.abort(), []);

  const send = useCallback(
    async ({ text, model, settings, attachment }: SendOptions): Promise<boolean> => {
      if (controllerRef.current) return false;
      const history = messages;
      const now = Date.now();
      setMessages([...history, { role: 'user', content: text, timestamp: now }]);
      setDraft('');
      const controller = new AbortController();
      controllerRef.current = controller;
      let reply = '';
      const finish = (message: Omit<ConversationMessage, 'timestamp'>) => {
        controllerRef.current = null;
        setDraft(null);
        setMessages((current) => [...current, { ...message, timestamp: Date.now() }]);
      };

      try {
        await streamChat(
          {
            agentId: agent.id,
            model,
            ...settings,
            messages: requestMessages(history, {
              text,
              attachment: attachment
                ? {
                    type: 'file',
                    file: {
                      filename: attachment.file.name,
                      file_data: uploadDataUrl(attachment.file.name, attachment.dataUrl, isVisionModel(model)),
                    },
                  }
                : undefined,
            }),
          },
          {
            signal: controller.signal,
            onDelta: (delta) => {
              reply += delta;
              setDraft(reply);
            },
          },
        );
        finish({ role: 'assistant', content: reply });
        return true;
      } catch (error) {
        if ((error as Error).name === 'AbortError') {
          finish({ role: 'assistant', content: reply, status: 'stopped' });
          return false;
        }
        const reason = error instanceof ChatRequestError ? error.message : MSG.chatFailedShort;
        toast.error(MSG.chatFailed);
        finish({ role: 'assistant', content: reply ? `${reply}\n\n${reason}` : reason, status: 'error' });
        return false;
      }
    },
    [agent.id, messages],
  );

  const stop = useCallback(() => controllerRef.current?.abort(), []);

  return { messages, draft, waiting: draft !== null, send, stop };
}
