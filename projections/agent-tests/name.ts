/** The read model's name: its runner, its generations, and every wait for it. */
export const AGENT_TESTS_READ_MODEL = 'agent-tests';
