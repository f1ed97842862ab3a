import { initialConversation, isConversation, type ConversationMessage } from '../../lib/chat/conversation';
import { findAgent, type Agent } from '../../lib/chat/agents';

/**
 * Session-scoped persistence (sessionStorage): each agent's conversation and the open agent survive a
 * reload but not the end of the tab. Storage can be full or blocked; the hub then simply forgets.
 */
const PREFIX = 'lumora:agent-hub:';

function read(key: string): unknown {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown) {
  try {
    if (value === null) sessionStorage.removeItem(PREFIX + key);
    else sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: keep working without persistence.
  }
}

export function loadConversation(agent: Agent): ConversationMessage[] {
  const stored = read(`conversation:${agent.id}`);
  return isConversation(stored) && stored.length > 0 ? stored : initialConversation(agent);
}

export function saveConversation(agentId: string, messages: ConversationMessage[]) {
  write(`conversation:${agentId}`, messages);
}

export function loadActiveAgent(): Agent | null {
  const id = read('active');
  return typeof id === 'string' ? (findAgent(id) ?? null) : null;
}

export function saveActiveAgent(agentId: string | null) {
  write('active', agentId);
}
