import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../lib/chat/agents';
import { AgentList } from './agent-hub/AgentList';
import { ChatScreen } from './agent-hub/ChatScreen';
import { loadActiveAgent, saveActiveAgent } from './agent-hub/storage';
import { useChatModels } from './agent-hub/useChatModels';

/**
 * The agent hub: agent cards, then a streaming chat with the chosen agent through
 * POST /api/chat. The open agent and each conversation last for the browser session.
 */
export default function AgentHub() {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const { models, reload } = useChatModels();
  const listRef = useRef<HTMLDivElement>(null);
  /** The agent whose chat was just closed: its Activate button gets the focus back. */
  const returning = useRef<Agent | null>(null);

  // sessionStorage exists only in the browser: restore after hydration so server and client markup match.
  useEffect(() => {
    setAgent(loadActiveAgent());
    setHydrated(true);
  }, []);

  useEffect(() => {
    const previous = returning.current;
    if (agent || !previous) return;
    returning.current = null;
    listRef.current?.querySelector<HTMLButtonElement>(`button[data-agent="${previous.id}"]`)?.focus();
  }, [agent]);

  const open = (next: Agent | null) => {
    returning.current = next === null ? agent : null;
    saveActiveAgent(next?.id ?? null);
    setAgent(next);
  };

  return (
    <div data-testid="agent-hub" data-hydrated={hydrated ? 'true' : undefined}>
      {agent ? (
        <ChatScreen key={agent.id} agent={agent} models={models} reloadModels={reload} onBack={() => open(null)} />
      ) : (
        <div ref={listRef}>
          <AgentList onActivate={open} />
        </div>
      )}
    </div>
  );
}
