import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LimitedStatements } from './limited-statements';

describe('LimitedStatements', () => {
  let dir: string;
  let db: Database.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'limited-'));
    db = new Database(path.join(dir, 'rows.db'));
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, tag TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (n, tag) VALUES (?, ?)');
    for (let n = 1; n <= 10; n++) insert.run(n, n % 2 === 0 ? 'even' : 'odd');
  });

  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const numbers = (rows: Array<{ n: number }>) => rows.map((r) => r.n);

  it('returns at most `limit` rows, with the other parameters bound as usual', () => {
    const q = new LimitedStatements<[string, number], { n: number }>(
      db,
      'SELECT n FROM t WHERE tag = ? AND n > ? ORDER BY n',
    );
    expect(numbers(q.all(2, 'even', 2))).toEqual([4, 6]);
    expect(numbers(q.all(0, 'even', 2))).toEqual([]);
    expect(numbers(q.all(100, 'odd', 0))).toEqual([1, 3, 5, 7, 9]);
    expect(q.get(1, 'odd', 3)).toEqual({ n: 5 });
  });

  it('reads every row for a negative limit', () => {
    const q = new LimitedStatements<[number], { n: number }>(db, 'SELECT n FROM t WHERE n > ? ORDER BY n');
    expect(numbers(q.all(-1, 7))).toEqual([8, 9, 10]);
  });

  // The point of the class: SQLite re-plans a statement at every bind of a `LIMIT ?` parameter.
  it('writes the limit into the SQL and prepares each limit once', () => {
    const prepare = jest.spyOn(db, 'prepare');
    const q = new LimitedStatements<[number], { n: number }>(db, 'SELECT n FROM t WHERE n > ? ORDER BY n');
    for (let i = 0; i < 5; i++) {
      q.all(3, i);
      q.all(-1, i);
    }
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([
      'SELECT n FROM t WHERE n > ? ORDER BY n LIMIT 3',
      'SELECT n FROM t WHERE n > ? ORDER BY n',
    ]);
  });

  it('keeps a bounded number of limits prepared, dropping the oldest', () => {
    const prepare = jest.spyOn(db, 'prepare');
    const q = new LimitedStatements<[], { n: number }>(db, 'SELECT n FROM t ORDER BY n');
    for (let limit = 1; limit <= 33; limit++) q.all(limit);
    expect(prepare).toHaveBeenCalledTimes(33);
    q.all(33);
    q.all(2);
    expect(prepare).toHaveBeenCalledTimes(33);
    expect(numbers(q.all(1))).toEqual([1]);
    expect(prepare).toHaveBeenCalledTimes(34);
  });

  it('refuses a limit that is not an integer rather than writing it into SQL', () => {
    const q = new LimitedStatements<[], { n: number }>(db, 'SELECT n FROM t');
    for (const limit of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => q.all(limit)).toThrow(RangeError);
  });
});
