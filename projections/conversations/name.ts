/** The read model's name: its runner, its generations, and every wait for it. */
export const CONVERSATIONS_READ_MODEL = 'conversations';
