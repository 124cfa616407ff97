import type { DataSource } from 'typeorm';
import { dialectOf } from '../platform/database/dialect';
import { portableSql } from '../platform/database/portable-sql';
import { ReadQuery, sqlBoolean } from './read-query';
import { counterProjection } from '../../test/fixtures/counter-projection';
import { describeEachReadModelDatabase } from '../../test/support/read-model-databases';

const insert = (source: DataSource, id: string, total: number) =>
  source.query(portableSql(source, "INSERT INTO counter (stream_id, count, total, last_type) VALUES (?, 1, ?, 'T')"), [
    id,
    total,
  ]);

/**
 * The request path's read-model lookups: one query text for both databases, answered at once on
 * SQLite (no promise: the key guard stays synchronous) and awaited on PostgreSQL.
 */
describeEachReadModelDatabase('ReadQuery', (open) => {
  it('answers from the serving generation, synchronously on SQLite only', async () => {
    const source = await open(counterProjection());
    await insert(source, 'a', 3);
    await insert(source, 'b', 4);
    const byId = new ReadQuery<{ stream_id: string; total: number }>(
      () => source,
      'SELECT stream_id, total FROM counter WHERE stream_id = ?',
    );
    const answer = byId.get('a');
    expect(answer instanceof Promise).toBe(dialectOf(source) === 'postgres');
    expect(await answer).toEqual({ row: { stream_id: 'a', total: 3 }, switched: true });
    expect(await byId.get('a')).toEqual({ row: { stream_id: 'a', total: 3 }, switched: false });
    expect(await byId.get('none')).toEqual({ row: undefined, switched: false });
    const over = new ReadQuery<{ stream_id: string }>(
      () => source,
      'SELECT stream_id FROM counter WHERE total > ? ORDER BY stream_id',
    );
    expect((await over.all(0)).rows).toEqual([{ stream_id: 'a' }, { stream_id: 'b' }]);
    expect((await over.all(3)).rows).toEqual([{ stream_id: 'b' }]);
  });

  it('prepares again on the generation that replaced the old one, and says so once', async () => {
    const first = await open(counterProjection());
    const second = await open(counterProjection());
    await insert(first, 'x', 1);
    await insert(second, 'x', 2);
    let serving = first;
    const byId = new ReadQuery<{ total: number }>(() => serving, 'SELECT total FROM counter WHERE stream_id = ?');
    expect(await byId.get('x')).toEqual({ row: { total: 1 }, switched: true });
    serving = second;
    expect(await byId.get('x')).toEqual({ row: { total: 2 }, switched: true });
    expect(await byId.get('x')).toEqual({ row: { total: 2 }, switched: false });
  });

  it('reads a boolean column as a boolean on both', async () => {
    const source = await open(counterProjection());
    const [row] = (await source.query(portableSql(source, 'SELECT (1 = ?) AS yes, (1 = ?) AS no'), [1, 2])) as Array<{
      yes: unknown;
      no: unknown;
    }>;
    expect([sqlBoolean(row.yes), sqlBoolean(row.no)]).toEqual([true, false]);
  });
});
