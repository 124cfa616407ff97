import type { DataSource } from 'typeorm';
import { forDialect } from '../platform/database/dialect';
import { pgTransaction } from '../platform/database/pg-queries';
import { syncTransaction } from '../platform/database/raw-connection';

const timers = (one: boolean, dollar: boolean) =>
  `UPDATE timer SET status = 'pending', lease_until = NULL WHERE status = 'dead' AND owner = ${dollar ? '$1' : '?'}${one ? ` AND id = ${dollar ? '$2' : '?'}` : ''}`;
const letters = (one: boolean, dollar: boolean) =>
  `UPDATE dead_letter SET status = 'retry', retried_at = ${dollar ? '$1' : '?'} WHERE kind = 'timer' AND name = ${dollar ? '$2' : '?'} AND status = 'open'${one ? ` AND position = ${dollar ? '$3' : '?'}` : ''}`;

/**
 * Re-arms an owner's dead timers (one by id, or all) after a fix: each goes back to `pending`
 * with its due time, which has passed, so the running app fires it at its next look (within a
 * few seconds), and its dead letter is marked `retry` until then. Firing resolves it; failing
 * again as often as before dead-letters it again. Returns how many were re-armed.
 */
export async function rearmDeadTimers(
  platform: DataSource,
  owner: string,
  timerId?: string,
  now = new Date().toISOString(),
): Promise<number> {
  const one = timerId !== undefined;
  const timerParams = one ? [owner, timerId] : [owner];
  const letterParams = one ? [now, owner, timerId] : [now, owner];
  return forDialect(platform, {
    sqlite: async (source) =>
      syncTransaction(source, (db) => {
        const { changes } = db.prepare(timers(one, false)).run(...timerParams);
        db.prepare(letters(one, false)).run(...letterParams);
        return changes;
      }),
    postgres: (source) =>
      pgTransaction(source, async (q) => {
        const rearmed = await q.affected(timers(one, true), timerParams);
        await q.affected(letters(one, true), letterParams);
        return rearmed;
      }),
  });
}
