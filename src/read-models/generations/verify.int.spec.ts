import Database from 'better-sqlite3';
import { Client } from 'pg';
import { PostgresGenerationStorage, type GenerationStorage } from './generation-storage';
import type { ReadModelRegistry } from './read-model-registry';
import { verify } from './verify';
import { appendCounterEvents, counterProjection } from '../../../test/fixtures/counter-projection';
import { ReadSide } from '../../../test/fixtures/read-side-harness';
import { describeOnPostgres, type PostgresServer } from '../../../test/support/postgres-server';

const NAME = 'counters';

/** Statements on the live generation, outside the app, as an operator's mistake or a bug would change it. */
interface Tamper {
  get<T>(sql: string, ...params: unknown[]): Promise<T>;
  /** rows changed */
  run(sql: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

interface Backend {
  /** where generations live (undefined: SQLite files under the harness's DATA_DIR) */
  storage(): Promise<GenerationStorage | undefined>;
  tamper(registry: ReadModelRegistry, location: string): Promise<Tamper>;
}

const sqlite: Backend = {
  storage: async () => undefined,
  tamper: async (_registry, file) => {
    const db = new Database(file);
    return {
      get: async <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T,
      run: async (sql, ...params) => db.prepare(sql).run(...params).changes,
      close: async () => void db.close(),
    };
  },
};

function postgres(server: () => PostgresServer): Backend {
  return {
    storage: async () =>
      new PostgresGenerationStorage(
        await server().createDatabase(`verify_${Date.now()}_${Math.floor(Math.random() * 1e6)}`),
      ),
    tamper: async (registry, location) => {
      const storage = registry.storage as PostgresGenerationStorage;
      const client = new Client({
        connectionString: storage.url,
        options: `-c search_path=${storage.schemaOf(location)}`,
      });
      await client.connect();
      let n = 0;
      const numbered = (sql: string) => sql.replace(/\?/g, () => `$${++n}`);
      return {
        get: async <T>(sql: string, ...params: unknown[]) => {
          n = 0;
          return (await client.query(numbered(sql), params)).rows[0] as T;
        },
        run: async (sql, ...params) => {
          n = 0;
          return (await client.query(numbered(sql), params)).rowCount ?? 0;
        },
        close: () => client.end(),
      };
    },
  };
}

function verifySuite(backend: () => Backend) {
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
    // the build's speed is not under test: on PostgreSQL it commits per batch, and a slow disk (fsync p50 5 ms
    // at times on this machine) took it past the harness's 2 s default
    const server = await side.startReadModels([projection], {
      store,
      storage: await backend().storage(),
      timeoutMs: 60_000,
    });
    await server.readModels.waitFor(head, [NAME]);
    return { projection, head, ...server };
  }

  it('finds no difference after a clean build (live runner still attached)', async () => {
    const { projection, store, registry, head } = await built();
    const report = await verify(projection, store, registry);
    expect(report).toMatchObject({ name: NAME, generation: 1, position: head, differences: 0 });
    expect(report.tables.map((t) => t.table).sort()).toEqual(['counter', 'line']);
    const byTable = Object.fromEntries(report.tables.map((t) => [t.table, t]));
    expect(byTable.counter).toMatchObject({
      liveRows: 12,
      replayRows: 12,
      missing: 0,
      extra: 0,
      changed: 0,
      examples: [],
    });
    expect(byTable.line.liveRows).toBe(byTable.line.replayRows);
    expect(byTable.line.liveRows).toBeGreaterThan(1000);
  });

  it('reports changed, missing and extra rows, with examples, after the live generation is tampered with', async () => {
    const { projection, store, registry, stop } = await built();
    await stop();
    const location = (await registry.active(NAME, 1))!.file;

    const db = await backend().tamper(registry, location);
    let deleted: { stream_id: string; revision: number };
    try {
      deleted = await db.get<typeof deleted>(
        "SELECT stream_id, revision FROM line WHERE stream_id = 'counter-5' ORDER BY revision LIMIT 1 OFFSET 7",
      );
      await db.run("UPDATE counter SET total = total + 100 WHERE stream_id = 'counter-3'");
      expect(
        await db.run('DELETE FROM line WHERE stream_id = ? AND revision = ?', deleted.stream_id, deleted.revision),
      ).toBe(1);
      await db.run("INSERT INTO line (stream_id, revision, type, data) VALUES ('counter-5', 999999, 'Forged', '{}')");
      await db.run("INSERT INTO counter (stream_id, count, total, last_type) VALUES ('forged', 1, 1, 'Forged')");
    } finally {
      await db.close();
    }

    const report = await verify(projection, store, registry);
    expect(report.differences).toBe(4);
    const byTable = Object.fromEntries(report.tables.map((t) => [t.table, t]));

    expect(byTable.counter).toMatchObject({ liveRows: 13, replayRows: 12, changed: 1, missing: 0, extra: 1 });
    const changed = byTable.counter.examples.find((e) => e.kind === 'changed')!;
    expect(changed.key).toEqual(['counter-3']);
    expect((changed.live as { total: number }).total - (changed.replay as { total: number }).total).toBe(100);
    expect(byTable.counter.examples).toContainEqual(
      expect.objectContaining({
        kind: 'extra',
        key: ['forged'],
        live: { stream_id: 'forged', count: 1, total: 1, last_type: 'Forged' },
      }),
    );

    expect(byTable.line).toMatchObject({ changed: 0, missing: 1, extra: 1 });
    expect(byTable.line.liveRows).toBe(byTable.line.replayRows);
    expect(byTable.line.examples).toContainEqual(
      expect.objectContaining({ kind: 'missing', key: [deleted!.stream_id, deleted!.revision] }),
    );
    expect(byTable.line.examples).toContainEqual(
      expect.objectContaining({ kind: 'extra', key: ['counter-5', 999999] }),
    );
    const missing = byTable.line.examples.find((e) => e.kind === 'missing')!;
    expect(missing.replay).toMatchObject(deleted!);
    expect(missing.live).toBeUndefined();
  });
}

describe('verify() on SQLite generation files', () => verifySuite(() => sqlite));

describeOnPostgres('verify() on PostgreSQL generation schemas', (server) => verifySuite(() => postgres(server)));
