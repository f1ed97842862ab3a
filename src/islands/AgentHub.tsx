import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../lib/chat/agents';
import { $agent, loadModels, openAgent, restoreHub } from '../lib/chat/hub-state';
import { AgentList } from './agent-hub/AgentList';
import { ChatScreen } from './agent-hub/ChatScreen';

/**
 * The agent hub: agent cards, then a streaming chat with the chosen agent through POST /api/chat. The state
 * and actions are in src/lib/chat/hub-state.ts; the open agent and each conversation last for the browser session.
 */
export default function AgentHub() {
  const agent = useStore($agent);
  const [hydrated, setHydrated] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  /** The agent whose chat was just closed: its Activate button gets the focus back. */
  const returning = useRef<Agent | null>(null);

  // sessionStorage exists only in the browser: restore after hydration so server and client markup match.
  useEffect(() => {
    restoreHub();
    setHydrated(true);
  }, []);
  // The model list, fetched once the hub is on the page (stopped if it goes away).
  useEffect(() => loadModels(), []);

  useEffect(() => {
    const previous = returning.current;
    if (agent || !previous) return;
    returning.current = null;
    listRef.current?.querySelector<HTMLButtonElement>(`button[data-agent="${previous.id}"]`)?.focus();
  }, [agent]);

  const open = (next: Agent | null) => {
    returning.current = next === null ? agent : null;
    openAgent(next);
  };

  return (
    <div data-testid="agent-hub" data-hydrated={hydrated ? 'true' : undefined}>
      {agent ? (
        <ChatScreen key={agent.id} agent={agent} onBack={() => open(null)} />
      ) : (
        <div ref={listRef}>
          <AgentList onActivate={open} />
        </div>
      )}
    </div>
  );
}
