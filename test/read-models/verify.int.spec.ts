import Database from 'better-sqlite3';
import { verify } from '../../src/read-models/verify';
import { appendCounterEvents, counterProjection } from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';

const NAME = 'counters';

describe('verify()', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  async function built() {
    const projection = counterProjection();
    const store = await side.openStore();
    const head = await appendCounterEvents(store, { events: 1200, streams: 12, ignoredEvery: 9 });
    const server = await side.startReadModels([projection], { store });
    await server.readModels.waitFor(head, [NAME]);
    return { projection, head, ...server };
  }

  it('finds no difference after a clean build (live runner still attached)', async () => {
    const { projection, store, registry, head } = await built();
    const report = await verify(projection, store, registry);
    expect(report).toMatchObject({ name: NAME, generation: 1, position: head, differences: 0 });
    expect(report.tables.map((t) => t.table).sort()).toEqual(['counter', 'line']);
    const byTable = Object.fromEntries(report.tables.map((t) => [t.table, t]));
    expect(byTable.counter).toMatchObject({ liveRows: 12, replayRows: 12, missing: 0, extra: 0, changed: 0, examples: [] });
    expect(byTable.line.liveRows).toBe(byTable.line.replayRows);
    expect(byTable.line.liveRows).toBeGreaterThan(1000);
  });

  it('reports changed, missing and extra rows, with examples, after the live file is tampered with', async () => {
    const { projection, store, registry, stop } = await built();
    await stop();
    const file = (await registry.active(NAME, 1))!.file;

    const db = new Database(file);
    let deleted: { stream_id: string; revision: number };
    try {
      deleted = db.prepare("SELECT stream_id, revision FROM line WHERE stream_id = 'counter-5' ORDER BY revision LIMIT 1 OFFSET 7").get() as typeof deleted;
      db.prepare("UPDATE counter SET total = total + 100 WHERE stream_id = 'counter-3'").run();
      expect(db.prepare('DELETE FROM line WHERE stream_id = ? AND revision = ?').run(deleted.stream_id, deleted.revision).changes).toBe(1);
      db.prepare("INSERT INTO line (stream_id, revision, type, data) VALUES ('counter-5', 999999, 'Forged', '{}')").run();
      db.prepare("INSERT INTO counter (stream_id, count, total, last_type) VALUES ('forged', 1, 1, 'Forged')").run();
    } finally {
      db.close();
    }

    const report = await verify(projection, store, registry);
    expect(report.differences).toBe(4);
    const byTable = Object.fromEntries(report.tables.map((t) => [t.table, t]));

    expect(byTable.counter).toMatchObject({ liveRows: 13, replayRows: 12, changed: 1, missing: 0, extra: 1 });
    const changed = byTable.counter.examples.find((e) => e.kind === 'changed')!;
    expect(changed.key).toEqual(['counter-3']);
    expect((changed.live as { total: number }).total - (changed.replay as { total: number }).total).toBe(100);
    expect(byTable.counter.examples).toContainEqual(
      expect.objectContaining({ kind: 'extra', key: ['forged'], live: { stream_id: 'forged', count: 1, total: 1, last_type: 'Forged' } }),
    );

    expect(byTable.line).toMatchObject({ changed: 0, missing: 1, extra: 1 });
    expect(byTable.line.liveRows).toBe(byTable.line.replayRows);
    expect(byTable.line.examples).toContainEqual(expect.objectContaining({ kind: 'missing', key: [deleted!.stream_id, deleted!.revision] }));
    expect(byTable.line.examples).toContainEqual(expect.objectContaining({ kind: 'extra', key: ['counter-5', 999999] }));
    const missing = byTable.line.examples.find((e) => e.kind === 'missing')!;
    expect(missing.replay).toMatchObject(deleted!);
    expect(missing.live).toBeUndefined();
  });
});
