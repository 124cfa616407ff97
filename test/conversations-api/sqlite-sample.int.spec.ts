import type { EventStore } from '../../src/event-store/event-store.port';
import { openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { conversationsProjection } from '../../projections/conversations/conversations.projection';
import { SqliteConversationsRepository } from '../../projections/conversations/sqlite-queries';
import { catchUp } from '../../src/read-models/generations/catch-up';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import { seed } from '../../src/cli/seed/seed';
import { filters } from './list-filters';
import { patient } from '../support/patience';

/**
 * sample=random on the SQLite read model, exact and by time probes, over seeded conversations of
 * two agents: what every `npm test` runs (the PostgreSQL comparison in postgres-search.int.spec.ts
 * needs PostgreSQL's binaries).
 */
describe('sample=random on SQLite', () => {
  let dir: string;
  let store: EventStore;
  let source: DataSource;
  let agents: string[];
  /** every conversation of agents[0] in live, oldest first, with its start */
  let listed: Array<{ id: string; startedAt: string }>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sample-'));
    await seed({
      dataDir: dir,
      conversations: 120,
      agents: 2,
      days: 20,
      seed: 7,
      concurrency: 8,
      log: () => undefined,
      env: { READ_MODEL_DB: 'sqlite' },
    });
    store = await openSealedSqliteLog(dir);
    source = await openReadModel(conversationsProjection, path.join(dir, 'sample-check.sqlite'));
    await catchUp(source, conversationsProjection, store, { batchSize: 500 });
    agents = (
      (await source.query('SELECT DISTINCT agent_id AS agent FROM conversation ORDER BY agent_id')) as Array<{
        agent: string;
      }>
    ).map((r) => r.agent);
    listed = (await source.query(
      "SELECT id, started_at AS startedAt FROM conversation WHERE agent_id = ? AND environment = 'live' ORDER BY started_at, id",
      [agents[0]],
    )) as Array<{ id: string; startedAt: string }>;
  }, patient(60_000));

  afterAll(async () => {
    await source?.destroy();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  it.each([
    ['exactly', () => new SqliteConversationsRepository(() => source)],
    ['by time probes', () => new SqliteConversationsRepository(() => source, 0)],
  ])(
    'draws min(limit, matches) distinct conversations of the range, among other agents and times: %s',
    async (_how, repository) => {
      const sampler = repository();
      expect(agents).toHaveLength(2);
      expect(listed.length).toBeGreaterThan(20);
      const everything = new Set(listed.map((c) => c.id));
      const whole = {
        startTime: listed[0].startedAt,
        endTime: new Date(Date.parse(listed[listed.length - 1].startedAt) + 1).toISOString(),
      };
      const seen = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const page = await sampler.list(agents[0], filters({ sample: true, ...whole }), null, 10);
        expect(page.more).toBe(false);
        expect(new Set(ids(page.rows)).size).toBe(10);
        for (const id of ids(page.rows)) {
          expect(everything.has(id)).toBe(true);
          seen.add(id);
        }
      }
      expect(seen.size).toBeGreaterThan(10);
      // a narrow range: the oldest few of this agent, among the other agent's conversations and later ones
      const narrow = {
        startTime: listed[0].startedAt,
        endTime: new Date(Date.parse(listed[2].startedAt) + 1).toISOString(),
      };
      const inRange = new Set(
        listed.filter((c) => c.startedAt >= narrow.startTime && c.startedAt < narrow.endTime).map((c) => c.id),
      );
      expect(inRange.size).toBeGreaterThanOrEqual(3);
      for (let i = 0; i < 10; i++) {
        const two = ids((await sampler.list(agents[0], filters({ sample: true, ...narrow }), null, 2)).rows);
        expect(new Set(two).size).toBe(2);
        for (const id of two) expect(inRange.has(id)).toBe(true);
      }
      expect(ids((await sampler.list(agents[0], filters({ sample: true, ...narrow }), null, 50)).rows).sort()).toEqual(
        [...inRange].sort(),
      );
      expect(
        (
          await sampler.list(
            agents[0],
            filters({ sample: true, startTime: '2001-01-01T00:00:00.000Z', endTime: '2001-02-01T00:00:00.000Z' }),
            null,
            5,
          )
        ).rows,
      ).toEqual([]);
    },
  );
});
