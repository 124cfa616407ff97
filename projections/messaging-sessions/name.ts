/** The read model's name: its runner, its generations, and every wait for it. */
export const MESSAGING_SESSIONS_READ_MODEL = 'messaging-sessions';
