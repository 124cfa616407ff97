import pino from 'pino';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { readCheckpoint } from '../../src/read-models/apply/apply-batch';
import { DeadLetterStore } from '../../src/subscriptions/dead-letters';
import { ReadModels } from '../../src/read-models/read-models.service';
import { rebuild } from '../../src/read-models/generations/rebuild';
import { retryProjectionDeadLetters } from '../../src/read-models/failures/retry-dead-letters';
import { ApplyThread } from '../../src/read-models/apply/thread-applier';
import { COUNTER_CATALOG, POISONED, poisonCure } from '../fixtures/counter-catalog';
import { INCREMENTED, actualCounters, counterProjection } from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';

/** A projection whose handler throws for events marked `poison` until `cure.healed` flips. */
function fixableProjection(name = 'counters') {
  const cure = { healed: false, calls: 0 };
  const projection = counterProjection({
    name,
    before: (event: RecordedEvent) => {
      if (!(event.data as { poison?: boolean }).poison) return;
      cure.calls++;
      if (!cure.healed) throw new Error('NOT NULL constraint failed: counter.name');
    },
  });
  return { projection, cure };
}

/** Tenant a's good event, tenant b's poison event, then tenant c's good events: one batch or several. */
async function appendPoisonScenario(store: SqliteEventStore) {
  await store.append('tenant-a', [newTestEvent(INCREMENTED, { by: 1 })]);
  const poison = await store.append('tenant-b', [newTestEvent(INCREMENTED, { by: 10, poison: true })]);
  await store.append('tenant-c', [newTestEvent(INCREMENTED, { by: 2 }), newTestEvent(INCREMENTED, { by: 3 })]);
  return { poison: poison.position, head: await store.headPosition() };
}

const byStream = async (readModels: ReadModels, name: string) =>
  (await actualCounters(readModels.source(name))).counters;
const statusOf = async (readModels: ReadModels, name: string) =>
  (await readModels.status()).find((s) => s.name === name)!;

/** Logs written at error level, as pino hands them over. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('dead letters: a poison event never stops a read model', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });
  afterEach(async () => {
    poisonCure.healed = false;
    await side.cleanup();
  });

  async function expectPoisonSetAside(
    readModels: ReadModels,
    deadLetters: DeadLetterStore,
    name: string,
    scenario: { poison: string; head: string },
  ) {
    // read-your-writes past the poison event is released: the read model has passed it
    await readModels.waitFor(scenario.head as never, [name]);
    const counters = await byStream(readModels, name);
    expect(counters.get('tenant-a')).toMatchObject({ count: 1, total: 1 });
    expect(counters.get('tenant-c')).toMatchObject({ count: 2, total: 5 });
    expect(counters.has('tenant-b')).toBe(false);
    expect(await readCheckpoint(readModels.source(name), name)).toBe(scenario.head);
    const letters = await deadLetters.list({ name });
    expect(letters).toEqual([
      expect.objectContaining({
        kind: 'projection',
        name,
        version: 1,
        generation: 1,
        position: scenario.poison,
        streamId: 'tenant-b',
        eventType: INCREMENTED,
        status: 'open',
        attempts: 3,
      }),
    ]);
    expect(letters[0].error).toMatch(/NOT NULL constraint failed|poison event/);
    const status = await statusOf(readModels, name);
    expect(status).toMatchObject({ state: 'serving', deadLetters: 1, degraded: true, error: null, lagEvents: 0 });
  }

  it('inline runner: dead-letters the event, applies the other tenants, logs it without data, and a retry after the fix resolves it', async () => {
    const store = await side.openStore();
    const { projection, cure } = fixableProjection();
    const { logger, lines } = capturingLogger();
    const platform = await side.openPlatform();
    const registry = side.registry(platform);
    const readModels = new ReadModels([projection], store, registry, logger, 5000);
    await readModels.start();
    try {
      const scenario = await appendPoisonScenario(store);
      await expectPoisonSetAside(readModels, registry.deadLetters, 'counters', scenario);
      expect(lines).toEqual([
        expect.objectContaining({
          level: 50,
          projection: 'counters',
          position: scenario.poison,
          streamId: 'tenant-b',
          eventType: INCREMENTED,
          error: 'NOT NULL constraint failed: counter.name',
        }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('"by":10');

      // later events still flow, and the dead letter is not met again
      const later = await store.append('tenant-d', [newTestEvent(INCREMENTED, { by: 7 })]);
      await readModels.waitFor(later.position, ['counters']);
      expect((await byStream(readModels, 'counters')).get('tenant-d')).toMatchObject({ total: 7 });

      // still broken: the retry leaves it open, with the new error
      const failed = await retryProjectionDeadLetters(projection, store, registry);
      expect({ resolved: failed.resolved.length, failed: failed.failed.length }).toEqual({ resolved: 0, failed: 1 });
      expect((await registry.deadLetters.list({ name: 'counters' }))[0]).toMatchObject({ status: 'open', attempts: 4 });

      cure.healed = true;
      const report = await retryProjectionDeadLetters(projection, store, registry);
      expect(report.resolved.map((l) => l.position)).toEqual([scenario.poison]);
      expect(report.failed).toEqual([]);
      expect(await registry.deadLetters.list({ name: 'counters' })).toEqual([]);
      expect((await registry.deadLetters.list({ name: 'counters', status: 'resolved' }))[0]).toMatchObject({
        status: 'resolved',
        resolvedAt: expect.any(String),
      });
      expect((await byStream(readModels, 'counters')).get('tenant-b')).toMatchObject({ count: 1, total: 10 });
      expect(await statusOf(readModels, 'counters')).toMatchObject({ deadLetters: 0, degraded: false });
    } finally {
      await readModels.stop();
    }
  });

  it('a handler that fails once (not for good) is retried event by event: nothing is dead-lettered or lost', async () => {
    const store = await side.openStore();
    let calls = 0;
    const projection = counterProjection({
      before: (event) => {
        if ((event.data as { poison?: boolean }).poison && ++calls === 1) throw new Error('a hiccup');
      },
    });
    const { readModels, registry } = await side.startReadModels([projection], { store });
    const scenario = await appendPoisonScenario(store);
    await readModels.waitFor(scenario.head as never, ['counters']);
    expect((await byStream(readModels, 'counters')).get('tenant-b')).toMatchObject({ total: 10 });
    expect(await registry.deadLetters.list()).toEqual([]);
    expect(await statusOf(readModels, 'counters')).toMatchObject({ degraded: false, deadLetters: 0 });
  });

  it('a transient failure (database busy) is never dead-lettered: the runner retries from its checkpoint', async () => {
    const store = await side.openStore();
    let busy = 2;
    const projection = counterProjection({
      before: (event) => {
        if ((event.data as { poison?: boolean }).poison && busy-- > 0)
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      },
    });
    const { readModels, registry } = await side.startReadModels([projection], { store });
    const scenario = await appendPoisonScenario(store);
    await readModels.waitFor(scenario.head as never, ['counters']);
    expect((await byStream(readModels, 'counters')).get('tenant-b')).toMatchObject({ total: 10 });
    expect(await registry.deadLetters.list({ status: 'all' })).toEqual([]);
  });

  it('apply thread: the event that throws on the thread is dead-lettered, the rest applies, and a retry here applies it once fixed', async () => {
    const store = await side.openStore();
    const { readModels, registry } = await side.startReadModels([POISONED], {
      store,
      applyThread: new ApplyThread(COUNTER_CATALOG),
    });
    const scenario = await appendPoisonScenario(store);
    await expectPoisonSetAside(readModels, registry.deadLetters, 'poisoned', scenario);

    poisonCure.healed = true;
    const report = await retryProjectionDeadLetters(POISONED, store, registry, scenario.poison as never);
    expect(report.resolved).toHaveLength(1);
    expect((await byStream(readModels, 'poisoned')).get('tenant-b')).toMatchObject({ total: 10 });
    expect(await statusOf(readModels, 'poisoned')).toMatchObject({ degraded: false });
  });

  it('rebuild: meeting the poison event dead-letters it for the new generation and completes; an applied one resolves the old letter', async () => {
    const store = await side.openStore();
    const { projection, cure } = fixableProjection();
    const scenario = await appendPoisonScenario(store);
    const registry = side.registry(await side.openPlatform());
    const first = await rebuild(projection, store, registry);
    expect(first).toMatchObject({ generation: 1, deadLettered: 1, events: 4 });
    expect(await registry.deadLetters.list()).toEqual([
      expect.objectContaining({ position: scenario.poison, generation: 1, status: 'open' }),
    ]);

    // the handler fixed in code: a rebuild applies it, and what generation 1 set aside is resolved
    cure.healed = true;
    const second = await rebuild(projection, store, registry);
    expect(second).toMatchObject({ generation: 2, deadLettered: 0 });
    expect(await registry.deadLetters.list()).toEqual([]);
  });
});
