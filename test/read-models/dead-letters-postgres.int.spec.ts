import { newTestEvent } from '../../src/event-store/event-store.contract';
import { openAppDatabase } from '../../src/app.database';
import { readCheckpoint } from '../../src/read-models/apply/apply-batch';
import { PostgresGenerationStorage } from '../../src/read-models/generations/generation-storage';
import { ReadModelRegistry } from '../../src/read-models/generations/read-model-registry';
import { ReadModels } from '../../src/read-models/read-models.service';
import { retryProjectionDeadLetters } from '../../src/read-models/failures/retry-dead-letters';
import { INCREMENTED, actualCounters, counterProjection } from '../fixtures/counter-projection';
import { ReadSide, silentLogger } from '../fixtures/read-side-harness';
import { describeOnPostgres } from '../support/postgres-server';
import { patient } from '../support/patience';

/** The runner with its generation in a PostgreSQL schema and its dead letters in the PostgreSQL platform database. */
describeOnPostgres('dead letters on PostgreSQL read models', (server) => {
  let side: ReadSide;
  beforeEach(() => {
    side = new ReadSide();
  });
  afterEach(async () => side.cleanup());

  it('a poison event is dead-lettered, the other tenants apply, status is degraded, and a retry after the fix resolves it', async () => {
    const cure = { healed: false };
    const projection = counterProjection({
      before: (event) => {
        if ((event.data as { poison?: boolean }).poison && !cure.healed)
          throw new Error('null value in column "name" violates not-null constraint');
      },
    });
    const url = await server().createDatabase('dead_letters');
    const store = await side.openStore();
    const platform = await openAppDatabase(side.dir, url);
    const registry = new ReadModelRegistry(platform, new PostgresGenerationStorage(url));
    const readModels = new ReadModels([projection], store, registry, silentLogger, patient(5000));
    await readModels.start();
    try {
      await store.append('tenant-a', [newTestEvent(INCREMENTED, { by: 1 })]);
      const poison = await store.append('tenant-b', [newTestEvent(INCREMENTED, { by: 10, poison: true })]);
      const last = await store.append('tenant-c', [newTestEvent(INCREMENTED, { by: 2 })]);
      await readModels.waitFor(last.position, ['counters']);
      const counters = (await actualCounters(readModels.source('counters'))).counters;
      expect([...counters.keys()].sort()).toEqual(['tenant-a', 'tenant-c']);
      expect(await readCheckpoint(readModels.source('counters'), 'counters')).toBe(last.position);
      expect(await registry.deadLetters.list()).toEqual([
        expect.objectContaining({
          kind: 'projection',
          name: 'counters',
          position: poison.position,
          streamId: 'tenant-b',
          status: 'open',
        }),
      ]);
      expect((await readModels.status())[0]).toMatchObject({ state: 'serving', degraded: true, deadLetters: 1 });

      cure.healed = true;
      const report = await retryProjectionDeadLetters(projection, store, registry, poison.position);
      expect(report.resolved).toHaveLength(1);
      expect((await actualCounters(readModels.source('counters'))).counters.get('tenant-b')).toMatchObject({
        total: 10,
      });
      expect((await readModels.status())[0]).toMatchObject({ degraded: false, deadLetters: 0 });
    } finally {
      await readModels.stop();
      await platform.destroy();
    }
  }, 120_000);
});
