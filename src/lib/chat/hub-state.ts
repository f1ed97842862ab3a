import { atom, computed, map } from 'nanostores';
import { ChatRequestError, fetchChatModels, streamChat } from './hub-api';
import { MSG } from '../messages';
import { toast } from '../toast';
import { findAgent, type Agent } from './agents';
import { fileTag, uploadDataUrl, withFileTag } from './attachments';
import { requestMessages, transcript, transcriptFileName, type ConversationMessage } from './conversation';
import { CONTINUE_PROMPT } from './errors';
import { downloadText, readAsDataUrl, tooLargeMessage, type AttachedFile } from './files';
import { loadActiveAgent, loadConversation, saveActiveAgent, saveConversation } from './hub-storage';
import type { ChatModelsResponse } from './models';
import { CHAT_LIMITS, DEFAULT_SAMPLING, type SamplingSettings } from './request-limits';
import type { ReadDocument } from './stream-protocol';

/**
 * The agent hub's state and actions (the tool's are in ../tool/state/, the cart's in ../cart.ts). Islands in
 * src/islands/agent-hub/ read the stores with `useStore` and call the actions; the actions talk to the server
 * through the hub's api.ts and toast their failures. The open agent and each agent's conversation are kept for
 * the browser session (./hub-storage.ts); the chat screen's choices (model, sliders, input, attached file) start
 * afresh each time an agent is opened.
 */

// ---------------------------------------------------------------- the open agent and its conversation

/** The open agent's id (null: the agent cards). */
export const $agentId = atom<string | null>(null);
export const $agent = computed($agentId, (id): Agent | null => (id ? (findAgent(id) ?? null) : null));

/** Each agent's conversation loaded so far (agent id → messages), written through to the session's storage. */
export const $conversations = map<Record<string, ConversationMessage[]>>({});

/** The open agent's conversation. */
export const $messages = computed([$agent, $conversations], (agent, all): ConversationMessage[] => (agent ? (all[agent.id] ?? []) : []));

/** The reply in progress: its text ('' = Thinking…) and a reasoning model's thinking so far. */
export interface Draft {
  content: string;
  reasoning: string;
}

/** The reply being streamed, with the agent it answers (a reply left behind by Back still lands in its conversation). */
export const $reply = atom<(Draft & { agentId: string }) | null>(null);
/** The open agent's reply in progress: null when idle. */
export const $draft = computed([$reply, $agentId], (reply, id): Draft | null =>
  reply && reply.agentId === id ? { content: reply.content, reasoning: reply.reasoning } : null,
);
/** A reply is streaming: Send waits, Stop shows. */
export const $waiting = computed($draft, (draft) => draft !== null);

function conversation(agent: Agent): ConversationMessage[] {
  return $conversations.get()[agent.id] ?? loadConversation(agent);
}

function updateConversation(agentId: string, change: (messages: ConversationMessage[]) => ConversationMessage[]): void {
  const next = change($conversations.get()[agentId] ?? []);
  $conversations.setKey(agentId, next);
  saveConversation(agentId, next);
}

// ---------------------------------------------------------------- the chat screen's choices

/** The model chosen in the list (null: the server's default). */
export const $chosenModel = atom<string | null>(null);
export const $settings = atom<SamplingSettings>(DEFAULT_SAMPLING);
/** The message being typed (a file's tag in front while one is attached). */
export const $input = atom('');
export const $attachment = atom<AttachedFile | null>(null);

function resetScreen(): void {
  $chosenModel.set(null);
  $settings.set(DEFAULT_SAMPLING);
  $input.set('');
  $attachment.set(null);
}

/** Restores the agent open before a reload (after hydration: the server's markup has none). */
export function restoreHub(): void {
  const agent = loadActiveAgent();
  if (agent) openAgent(agent);
}

/** Opens an agent's chat, or with null goes back to the cards; leaving a chat stops a reply nobody is reading. */
export function openAgent(agent: Agent | null): void {
  running?.abort();
  saveActiveAgent(agent?.id ?? null);
  resetScreen();
  if (agent) $conversations.setKey(agent.id, conversation(agent));
  $agentId.set(agent?.id ?? null);
}

export const setInput = (text: string) => $input.set(text);
export const setSettings = (settings: SamplingSettings) => $settings.set(settings);
export const chooseModel = (id: string) => $chosenModel.set(id);

// ---------------------------------------------------------------- models

/** The model list from GET /api/chat/models (null while it loads). */
export const $models = atom<ChatModelsResponse | null>(null);

/** The model a message goes to: the choice while the list still has it, else the list's default. */
export const $model = computed([$models, $chosenModel], (models, chosen) => {
  const offered = models?.models ?? [];
  const id = (chosen && offered.some((m) => m.id === chosen) ? chosen : null) ?? models?.defaultModel ?? '';
  return {
    id,
    /** The model receives images. */
    vision: offered.find((m) => m.id === id)?.vision === true,
    /** The server has a key for the AI service (a chat that is off says why, in the list). */
    configured: models?.configured !== false,
  };
});

let modelsRequest: AbortController | null = null;

function fetchModels(): void {
  modelsRequest?.abort();
  const controller = new AbortController();
  modelsRequest = controller;
  fetchChatModels(controller.signal).then(
    (list) => {
      if (modelsRequest === controller) $models.set(list);
    },
    () => {},
  );
}

/** Fetches the model list; returns what stops the request (the hub went away). */
export function loadModels(): () => void {
  fetchModels();
  return () => {
    modelsRequest?.abort();
    modelsRequest = null;
  };
}

/** Takes the list the server sent with a refusal, or fetches it again. */
export function refreshModels(list?: ChatModelsResponse): void {
  if (!list) return fetchModels();
  modelsRequest?.abort();
  modelsRequest = null;
  $models.set(list);
}

// ---------------------------------------------------------------- sending

let running: AbortController | null = null;

/**
 * Sends one message to the open agent and streams the reply into its conversation; resolves true when the reply
 * completed. A stopped reply keeps what arrived; a failed one says why in its bubble (and toasts); when the server
 * says the chosen model is no longer served, the list it refreshed is shown, on its default.
 */
async function send(text: string, attachment: AttachedFile | null): Promise<boolean> {
  const agent = $agent.get();
  if (!agent || running) return false;
  const { id: model, vision } = $model.get();
  const settings = $settings.get();
  const agentId = agent.id;
  const history = conversation(agent);
  const now = Date.now();
  updateConversation(agentId, () => [...history, { role: 'user', content: text, timestamp: now }]);
  $reply.set({ agentId, content: '', reasoning: '' });
  const controller = new AbortController();
  running = controller;
  let reply = '';
  let reasoning = '';
  const documents: ReadDocument[] = [];
  const finish = (message: Omit<ConversationMessage, 'timestamp'>) => {
    if (running === controller) running = null;
    $reply.set(null);
    const withReasoning = reasoning ? { ...message, reasoning } : message;
    updateConversation(agentId, (current) => [...current, { ...withReasoning, timestamp: Date.now() }]);
  };

  try {
    const { cut } = await streamChat(
      {
        agentId,
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
          $reply.set({ agentId, content: reply, reasoning });
        },
        onReasoning: (delta) => {
          reasoning += delta;
          $reply.set({ agentId, content: reply, reasoning });
        },
        // The server read the attachment: its text stays with the question, for later turns too.
        onDocument: (document) => {
          documents.push(document);
          updateConversation(agentId, (current) =>
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
    if (error instanceof ChatRequestError && error.status === 409) {
      // The server refreshed its list: show the new one, on its default.
      $chosenModel.set(null);
      refreshModels(error.models);
    }
    toast.error(MSG.chatFailed);
    finish({ role: 'assistant', content: reply ? `${reply}\n\n${reason}` : reason, status: 'error' });
    return false;
  }
}

/** Sends what is typed, with the attached file. */
export async function sendMessage(): Promise<void> {
  const text = $input.get().trim();
  if (!text || $waiting.get()) return;
  $input.set('');
  const sent = $attachment.get();
  const ok = await send(text, sent);
  // The file sent is cleared after a successful reply; after a failure it stays for a retry. Only that file: one
  // attached while the reply was finishing belongs to the next question.
  if (ok && $attachment.get() === sent) $attachment.set(null);
}

/** Asks for the rest of a reply that was cut. */
export function continueReply(): void {
  if ($waiting.get()) return;
  void send(CONTINUE_PROMPT, null);
}

/** Stops the reply being streamed; what arrived stays. */
export function stopReply(): void {
  running?.abort();
}

// ---------------------------------------------------------------- files

/** Attaches a file (one at a time): its tag goes in front of the input, replacing the previous file's. */
export async function attachFile(file: File): Promise<void> {
  if (file.size > CHAT_LIMITS.maxAttachmentBytes) {
    toast.error(tooLargeMessage(file.name));
    return;
  }
  try {
    const dataUrl = await readAsDataUrl(file);
    $input.set(withFileTag($input.get(), file.name, $attachment.get()?.file.name));
    $attachment.set({ file, dataUrl });
  } catch {
    toast.error(MSG.chatFileError);
  }
}

/** Removes the attached file and its tag in front of the input. */
export function removeAttachment(): void {
  const attachment = $attachment.get();
  if (!attachment) return;
  const tag = fileTag(attachment.file.name);
  const input = $input.get();
  $input.set(input.startsWith(tag) ? input.slice(tag.length).trimStart() : input);
  $attachment.set(null);
}

/** Saves the open conversation as a text file. */
export function downloadConversation(): void {
  const agent = $agent.get();
  if (!agent) return;
  downloadText(transcriptFileName(agent.id), transcript(agent, $messages.get()));
  toast.success(MSG.chatDownloaded);
}
