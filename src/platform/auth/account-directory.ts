import type { Awaitable } from '../awaitable';

/** Which region an account lives in; null when there is no such account. Accounts provides it. */
export interface AccountDirectory {
  /** At once when read from SQLite; a promise when the read model is in PostgreSQL. */
  regionOf(accountId: string): Awaitable<string | null>;
}

export const ACCOUNT_DIRECTORY = Symbol('AccountDirectory');
