/** The read model's name: its runner, its generations, and every wait for it. */
export const EXTERNAL_EVENTS_READ_MODEL = 'external-events';
