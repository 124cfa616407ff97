import type { DataSource } from 'typeorm';

/** The two databases the platform records live in: the embedded SQLite file, or PostgreSQL when scaled out. */
export type PlatformDialect = 'sqlite' | 'postgres';

export function dialectOf(source: DataSource): PlatformDialect {
  switch (source.options.type) {
    case 'better-sqlite3':
      return 'sqlite';
    case 'postgres':
      return 'postgres';
    default:
      throw new Error(`the platform database cannot be ${source.options.type}: only better-sqlite3 or postgres`);
  }
}

/**
 * Picks a store's implementation for the database under `source`. Stores whose atomic steps differ
 * between the two (a synchronous transaction on the shared SQLite connection; row locks with
 * SKIP LOCKED on a PostgreSQL pool) keep one class per dialect behind one interface, chosen here once.
 */
export function forDialect<T>(
  source: DataSource,
  implementations: Record<PlatformDialect, (source: DataSource) => T>,
): T {
  return implementations[dialectOf(source)](source);
}
