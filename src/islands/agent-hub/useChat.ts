import { useCallback, useEffect, useRef, useState } from 'react';
import type { Agent } from '../../lib/chat/agents';
import { uploadDataUrl } from '../../lib/chat/attachments';
import { requestMessages, type ConversationMessage } from '../../lib/chat/conversation';
import type { ChatModelsResponse } from '../../lib/chat/models';
import type { SamplingSettings } from '../../lib/chat/request-limits';
import type { ReadDocument } from '../../lib/chat/stream-protocol';
import { MSG } from '../../lib/messages';
import { toast } from '../../lib/toast';
import { ChatRequestError, streamChat } from './api';
import type { AttachedFile } from './files';
import { loadConversation, saveConversation } from './storage';

interface SendOptions {
  text: string;
  model: string;
  /** The chosen model receives images. */
  vision: boolean;
  settings: SamplingSettings;
  attachment: AttachedFile | null;
}

/** The reply in progress: its text ('' = Thinking…) and a reasoning model's thinking so far. */
export interface Draft {
  content: string;
  reasoning: string;
}

/**
 * One agent's conversation: kept in sessionStorage, extended by streamed replies. `draft` is the reply
 * in progress. Resolves `send` with true when the reply completed. `onModelGone` runs when the server
 * says the chosen model is no longer served (it has refreshed its list).
 */
export function useChat(agent: Agent, { onModelGone }: { onModelGone?: (models?: ChatModelsResponse) => void } = {}) {
  const [messages, setMessages] = useState<ConversationMessage[]>(() => loadConversation(agent));
  const [draft, setDraft] = useState<Draft | null>(null);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => saveConversation(agent.id, messages), [agent.id, messages]);
  // Leaving the chat (back button) stops a reply nobody is reading.
  useEffect(() => () => controllerRef.current?.abort(), []);

  const send = useCallback(
    async ({ text, model, vision, settings, attachment }: SendOptions): Promise<boolean> => {
      if (controllerRef.current) return false;
      const history = messages;
      const now = Date.now();
      setMessages([...history, { role: 'user', content: text, timestamp: now }]);
      setDraft({ content: '', reasoning: '' });
      const controller = new AbortController();
      controllerRef.current = controller;
      let reply = '';
      let reasoning = '';
      const documents: ReadDocument[] = [];
      const finish = (message: Omit<ConversationMessage, 'timestamp'>) => {
        controllerRef.current = null;
        setDraft(null);
        const withReasoning = reasoning ? { ...message, reasoning } : message;
        setMessages((current) => [...current, { ...withReasoning, timestamp: Date.now() }]);
      };

      try {
        const { cut } = await streamChat(
          {
            agentId: agent.id,
            model,
            ...settings,
            messages: requestMessages(history, {
              text,
              attachment: attachment
                ? { type: 'file', file: { filename: attachment.file.name, file_data: uploadDataUrl(attachment.file.name, attachment.dataUrl, vision) } }
                : undefined,
            }),
          },
          {
            signal: controller.signal,
            onDelta: (delta) => {
              reply += delta;
              setDraft({ content: reply, reasoning });
            },
            onReasoning: (delta) => {
              reasoning += delta;
              setDraft({ content: reply, reasoning });
            },
            // The server read the attachment: its text stays with the question, for later turns too.
            onDocument: (document) => {
              documents.push(document);
              setMessages((current) =>
                current.map((m) => (m.timestamp === now && m.role === 'user' ? { ...m, documents: [...documents] } : m)),
              );
            },
          },
        );
        finish(cut ? { role: 'assistant', content: reply, status: 'cut', cut } : { role: 'assistant', content: reply });
        return true;
      } catch (error) {
        if ((error as Error).name === 'AbortError') {
          finish({ role: 'assistant', content: reply, status: 'stopped' });
          return false;
        }
        const reason = error instanceof ChatRequestError ? error.message : MSG.chatFailedShort;
        if (error instanceof ChatRequestError && error.status === 409) onModelGone?.(error.models);
        toast.error(MSG.chatFailed);
        finish({ role: 'assistant', content: reply ? `${reply}\n\n${reason}` : reason, status: 'error' });
        return false;
      }
    },
    [agent.id, messages, onModelGone],
  );

  const stop = useCallback(() => controllerRef.current?.abort(), []);

  return { messages, draft, waiting: draft !== null, send, stop };
}
