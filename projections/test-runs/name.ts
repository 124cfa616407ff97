/** The read model's name: its runner, its generations, and every wait for it. */
export const TEST_RUNS_READ_MODEL = 'test-runs';
