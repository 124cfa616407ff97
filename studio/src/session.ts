import type { Credentials } from './api/http';

/** A signed-in session: kept in sessionStorage only, so closing the tab forgets the secret. */
export interface Session extends Credentials {
  /** The key's account (key mode); the account being looked at (operator mode), if any. */
  accountId: string | null;
  /** What the key may do, as GET /v1/api-keys/self says (empty in operator mode). */
  permissions: string[];
  label: string;
}

const STORAGE_KEY = 'parley-studio:session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Session;
    return typeof value.secret === 'string' && (value.mode === 'key' || value.mode === 'operator') ? value : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}
