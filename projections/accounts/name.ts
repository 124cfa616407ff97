/** The read model's name: its runner, its generations, and every wait for it. */
export const ACCOUNTS_READ_MODEL = 'accounts';
