/**
 * The hub's agents. The system message is built from this definition on the server for
 * every request; the browser only shows it, it never sends it.
 */
export type AgentIcon = 'bar-chart' | 'pencil' | 'pie-chart';

export interface Agent {
  id: string;
  name: string;
  description: string;
  icon: AgentIcon;
}

export const AGENTS = [
  {
    id: 'market-research',
    name: 'Market Research Agent',
    description:
      'Analyzes markets, competitors and customer trends to surface opportunities and practical recommendations for your business.',
    icon: 'bar-chart',
  },
  {
    id: 'content-writer',
    name: 'Content Writer Agent',
    description:
      'Drafts blog posts, social media copy, emails and website text in your brand voice, and helps you edit what you already have.',
    icon: 'pencil',
  },
  {
    id: 'data-analyst',
    name: 'Data Analyst Agent',
    description:
      'Explains data, spots patterns and outliers, and suggests charts and next steps from the numbers or files you share.',
    icon: 'pie-chart',
  },
] as const satisfies readonly Agent[];

export type AgentId = (typeof AGENTS)[number]['id'];

export const AGENT_IDS = AGENTS.map((a) => a.id) as [AgentId, ...AgentId[]];

export function findAgent(id: string): Agent | undefined {
  return AGENTS.find((a) => a.id === id);
}

/** The initial system message: the agent's name and description, and a request for concise, helpful answers. */
export function systemPrompt(agent: Agent): string {
  return `You are the ${agent.name}. ${agent.description} Give concise, helpful answers.`;
}

/** The initial assistant greeting that introduces the agent. */
export function greeting(agent: Agent): string {
  return `Hello! I'm the ${agent.name}. ${agent.description} How can I help you today?`;
}
