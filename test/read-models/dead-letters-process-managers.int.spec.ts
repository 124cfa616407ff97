import type { DataSource } from 'typeorm';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { ProcessCheckpoint } from '../../src/platform/database/platform.entities';
import { DeadLetterStore } from '../../src/subscriptions/dead-letters';
import { ProcessManagers } from '../../src/process-managers/process-managers';
import type { ProcessManager } from '../../src/process-managers/process-manager';
import { DomainError } from '../../src/platform/errors/domain-error';
import { waitUntil } from '../fixtures/counter-projection';
import { ReadSide, silentLogger } from '../fixtures/read-side-harness';
import { describeEachPlatformDatabase } from '../support/platform-databases';

/** Dead letters of process managers live in the platform database: the SQLite file, and PostgreSQL. */
describeEachPlatformDatabase('process managers set a poison event aside', (databases) => {
  let side: ReadSide;
  let store: SqliteEventStore;
  let platform: DataSource;
  let managers: ProcessManagers | null = null;

  beforeEach(async () => {
    side = new ReadSide();
    store = await side.openStore();
    platform = await (await databases.fresh()).open();
  });
  afterEach(async () => {
    await managers?.stop();
    managers = null;
    await side.cleanup();
  });

  it('a reaction that throws for one event is dead-lettered, the checkpoint moves on, other tenants are handled, and a retry after the fix resolves it', async () => {
    const handled: string[] = [];
    const cure = { healed: false };
    let lagging = 2;
    const manager: ProcessManager = {
      name: 'binder',
      partitionBy: (event) => event.streamId,
      handles: {
        Delivered: async (event: RecordedEvent<{ tenant: string; deep?: boolean; lagging?: boolean }>) => {
          // a read model catching up is transient: retried, never dead-lettered
          if (event.data.lagging && lagging-- > 0) throw new DomainError('READ_MODEL_LAGGING', 'not yet', 503);
          if (event.data.deep && !cure.healed) throw new RangeError('Maximum call stack size exceeded');
          handled.push(event.data.tenant);
        },
      },
    };
    const deadLetters = new DeadLetterStore(platform);
    const recorded: string[] = [];
    deadLetters.onRecorded((failure) => recorded.push(`${failure.kind}:${failure.name}`));
    managers = new ProcessManagers(store, platform, silentLogger, undefined, deadLetters);
    managers.register(manager);
    await managers.start();

    const poison = await store.append('delivery-b', [newTestEvent('Delivered', { tenant: 'b', deep: true })]);
    await store.append('delivery-c', [newTestEvent('Delivered', { tenant: 'c', lagging: true })]);
    await store.append('delivery-d', [newTestEvent('Delivered', { tenant: 'd' })]);
    const head = await store.headPosition();

    await waitUntil(
      async () => (await platform.getRepository(ProcessCheckpoint).findOneBy({ name: 'binder' }))?.position === head,
      'the checkpoint passes the poison event',
      10_000,
      20,
    );
    // the transient failure replays its batch (effects are idempotent): d may run more than once
    expect([...new Set(handled)].sort()).toEqual(['c', 'd']);
    expect(recorded).toEqual(['process-manager:binder']);
    const letters = await deadLetters.list({ kind: 'process-manager', name: 'binder' });
    expect(letters).toEqual([
      expect.objectContaining({
        position: poison.position,
        streamId: 'delivery-b',
        eventType: 'Delivered',
        status: 'open',
        version: null,
        error: 'RangeError: Maximum call stack size exceeded',
      }),
    ]);
    const [report] = await managers.report();
    expect(report).toMatchObject({ name: 'binder', deadLetters: 1, position: head, error: null });

    // the operator asks for a retry (the CLI's `retry binder --all`) once the fix is deployed
    cure.healed = true;
    expect(await deadLetters.requestRetry('process-manager', 'binder')).toBe(1);
    await waitUntil(
      async () => (await deadLetters.list({ name: 'binder', status: 'resolved' })).length === 1,
      'the running manager retries it',
      10_000,
      50,
    );
    expect(handled).toContain('b');
    expect((await managers.report())[0]).toMatchObject({ deadLetters: 0 });
  });
});
