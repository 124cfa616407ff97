/** The read model's name: its runner, its generations, and every wait for it. */
export const ALERTS_READ_MODEL = 'alerts';
