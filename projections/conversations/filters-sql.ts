import type { CursorPosition, ListFilters } from './query-types';

/**
 * A listing's filters as conditions on the conversation table `c`, with `?` placeholders (the
 * PostgreSQL repository numbers them). `in_progress` is 0/1 on SQLite and a boolean on PostgreSQL:
 * the parameter must be the column's own type, or PostgreSQL refuses the comparison.
 */
export function filtersSql(
  agentId: string,
  f: ListFilters,
  booleans: 'integer' | 'boolean',
  position: CursorPosition | null = null,
): { where: string[]; params: unknown[]; offset: number } {
  const where = ['c.agent_id = ?', 'c.environment = ?'];
  const params: unknown[] = [agentId, f.clientEnv];
  if (f.startTime) {
    where.push('c.started_at >= ?');
    params.push(f.startTime);
  }
  if (f.endTime) {
    where.push('c.started_at < ?');
    params.push(f.endTime);
  }
  if (f.channels.length > 0) {
    where.push(`c.channel IN (${f.channels.map(() => '?').join(', ')})`);
    params.push(...f.channels);
  }
  if (f.outcomes.length > 0) {
    where.push(`c.outcome IN (${f.outcomes.map(() => '?').join(', ')})`);
    params.push(...f.outcomes);
  }
  if (f.variantId) {
    where.push('c.variant_id = ?');
    params.push(f.variantId);
  }
  if (f.variantName) {
    where.push('c.variant_name = ?');
    params.push(f.variantName);
  }
  if (f.inProgress !== null) {
    where.push('c.in_progress = ?');
    params.push(booleans === 'boolean' ? f.inProgress : f.inProgress ? 1 : 0);
  }
  if (position && 'after' in position) {
    // The row value is what lets both databases seek the index to the cursor; the same condition
    // spelt with OR walks every entry before it, so a deep page would cost far more than the first.
    where.push('(c.started_at, c.id) < (?, ?)');
    params.push(position.after.startedAt, position.after.id);
  }
  return { where, params, offset: position && 'offset' in position ? position.offset : 0 };
}
