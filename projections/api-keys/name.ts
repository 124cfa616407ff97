/** The read model's name: its runner, its generations, and every wait for it. */
export const API_KEYS_READ_MODEL = 'api-keys';
