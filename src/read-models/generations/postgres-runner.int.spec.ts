import { newTestEvent } from '../../event-store/event-store.contract';
import { readCheckpoint } from '../apply/apply-batch';
import { PostgresGenerationStorage } from './generation-storage';
import { ReadModelRegistry } from './read-model-registry';
import { ReadModels } from '../read-models.service';
import { rebuild } from './rebuild';
import { readModelStatus } from '../status';
import {
  INCREMENTED,
  actualCounters,
  appendCounterEvents,
  counterProjection,
  expectedFromLog,
  waitUntil,
} from '../../../test/fixtures/counter-projection';
import { ReadSide, silentLogger } from '../../../test/fixtures/read-side-harness';
import { describeOnPostgres } from '../../../test/support/postgres-server';
import { patient } from '../../../test/support/patience';

const NAME = 'counters';

/**
 * The live runner with its generations in PostgreSQL schemas: catch-up and live batches,
 * read-your-writes, status, and a blue/green rebuild into a new schema that the running runner
 * follows, dropping the old schema.
 */
describeOnPostgres('read models on PostgreSQL', (server) => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });
  afterEach(async () => side.cleanup());

  const schemas = async (readModels: ReadModels) =>
    (
      (await readModels
        .source(NAME)
        .query(
          "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'rm_counters_%' ORDER BY 1",
        )) as Array<{ schema_name: string }>
    ).map((r) => r.schema_name);

  it('builds, serves, follows a rebuild into a new schema and drops the old one', async () => {
    const projection = counterProjection();
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 1500, streams: 7, ignoredEvery: 5 });
    const platform = await side.openPlatform();
    const registry = new ReadModelRegistry(platform, new PostgresGenerationStorage(server().url));
    const readModels = new ReadModels([projection], store, registry, silentLogger, patient(5000));
    await readModels.start();
    try {
      await readModels.waitFor(await store.headPosition(), [NAME]);
      expect((await registry.active(NAME, 1))!.file).toBe('postgres:rm_counters_v1_g1');
      expect(await schemas(readModels)).toEqual(['rm_counters_v1_g1']);
      let expected = await expectedFromLog(store);
      let actual = await actualCounters(readModels.source(NAME));
      expect(actual.lines).toBe(expected.lines);
      expect(actual.counters).toEqual(expected.counters);

      // live: one append, and read-your-writes on it
      const one = await store.append('live-1', [newTestEvent(INCREMENTED, { by: 3 })]);
      await readModels.waitFor(one.position, [NAME]);
      expect(await readCheckpoint(readModels.source(NAME), NAME)).toBe(one.position);
      const status = await readModelStatus([projection], store, registry);
      expect(status).toEqual([
        expect.objectContaining({
          name: NAME,
          generation: 1,
          status: 'active',
          position: one.position,
          lagEvents: 0,
          file: 'postgres:rm_counters_v1_g1',
        }),
      ]);

      // blue/green: the CLI's registry builds g2 in its own schema; the runner follows and drops g1
      const cli = new ReadModelRegistry(await side.openPlatform(), new PostgresGenerationStorage(server().url));
      const report = await rebuild(projection, await side.openStore(), cli);
      expect(report).toMatchObject({ generation: 2 });
      await waitUntil(
        async () => (await readModels.status())[0].generation === 2,
        'the runner attaches generation 2',
        5000,
        20,
      );
      await waitUntil(async () => (await schemas(readModels)).length === 1, 'the old schema is dropped', 5000, 20);
      expect(await schemas(readModels)).toEqual(['rm_counters_v1_g2']);
      const after = await store.append('live-2', [newTestEvent(INCREMENTED, { by: 4 })]);
      await readModels.waitFor(after.position, [NAME]);
      expected = await expectedFromLog(store);
      actual = await actualCounters(readModels.source(NAME));
      expect(actual.lines).toBe(expected.lines);
      expect(actual.counters).toEqual(expected.counters);
    } finally {
      await readModels.stop();
    }
  }, 180_000);
});
