/** The read model's name: its runner, its generations, and every wait for it. */
export const AGENTS_READ_MODEL = 'agents';
