import { AGENTS, type Agent } from '../../lib/chat/agents';
import { AgentIcon } from './icons';

/** The three agent cards, each with an Activate button. */
export function AgentList({ onActivate }: { onActivate: (agent: Agent) => void }) {
  return (
    <ul className="grid gap-6 md:grid-cols-3" aria-label="Agents">
      {AGENTS.map((agent) => (
        <li key={agent.id} className="card flex flex-col">
          <span className="mb-4 inline-flex size-12 items-center justify-center rounded-xl bg-surface-2 text-accent">
            <AgentIcon name={agent.icon} className="size-6" />
          </span>
          <h2 className="text-xl font-bold">{agent.name}</h2>
          <p className="mt-2 flex-1 text-muted">{agent.description}</p>
          <button
            type="button"
            className="btn-primary mt-6 self-start"
            aria-label={`Activate ${agent.name}`}
            data-agent={agent.id}
            onClick={() => onActivate(agent)}
          >
            Activate
          </button>
        </li>
      ))}
    </ul>
  );
}
