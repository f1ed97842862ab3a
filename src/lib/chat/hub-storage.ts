import { initialConversation, isConversation, type ConversationMessage } from './conversation';
import { findAgent, type Agent } from './agents';

/**
 * What the agent hub keeps in the browser: each agent's conversation and the open agent, in sessionStorage, so
 * they survive a reload but not the end of the tab (a chat may hold a visitor's documents; it should not outlive
 * the tab on a shared computer). @nanostores/persistent has one storage engine for every store (localStorage,
 * the cart's), so the hub's stores (./hub-state.ts) write through these helpers instead. Storage can be full or
 * blocked; the hub then simply forgets.
 */
export const HUB_STORAGE_PREFIX = 'lumora:agent-hub:';
export const ACTIVE_AGENT_KEY = `${HUB_STORAGE_PREFIX}active`;
export const conversationKey = (agentId: string) => `${HUB_STORAGE_PREFIX}conversation:${agentId}`;

function read(key: string): unknown {
  try {
    const raw = sessionStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota, privacy mode or no browser: keep working without persistence.
  }
}

/** The agent's kept conversation, or its greeting when none is kept (or what is kept is not a conversation). */
export function loadConversation(agent: Agent): ConversationMessage[] {
  const stored = read(conversationKey(agent.id));
  return isConversation(stored) && stored.length > 0 ? stored : initialConversation(agent);
}

export function saveConversation(agentId: string, messages: ConversationMessage[]) {
  write(conversationKey(agentId), messages);
}

export function loadActiveAgent(): Agent | null {
  const id = read(ACTIVE_AGENT_KEY);
  return typeof id === 'string' ? (findAgent(id) ?? null) : null;
}

export function saveActiveAgent(agentId: string | null) {
  write(ACTIVE_AGENT_KEY, agentId);
}
