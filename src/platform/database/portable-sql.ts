import type { DataSource, EntityManager } from 'typeorm';

/**
 * SQL written with `?` placeholders, as SQLite takes them, in the placeholders of the database
 * under `on` ($1, $2, ... on PostgreSQL). For the few statements a read model writes by hand; the
 * text must be plain SQL both databases read alike (no `?` inside string literals).
 */
export function portableSql(on: DataSource | EntityManager, sql: string): string {
  const source = 'connection' in on ? on.connection : on;
  if (source.options.type !== 'postgres') return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
