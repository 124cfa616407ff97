/** The read model's name: its runner, its generations, and every wait for it. */
export const CONCURRENCY_READ_MODEL = 'concurrency';
