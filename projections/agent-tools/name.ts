/** The read model's name: its runner, its generations, and every wait for it. */
export const AGENT_TOOLS_READ_MODEL = 'agent-tools';
