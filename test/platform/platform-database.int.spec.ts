import path from 'node:path';
import type { DataSource } from 'typeorm';
import { alertEvaluationWrites } from '../../src/alerts/alert-evaluation-writes';
import { AlertEvaluation } from '../../src/alerts/alert-evaluation.entity';
import { dialectOf } from '../../src/platform/database/dialect';
import { ReadModelGeneration } from '../../src/platform/database/platform.entities';
import { ReadModelRegistry } from '../../src/read-models/generations/read-model-registry';
import { describeEachPlatformDatabase, type PlatformDatabase } from '../support/platform-databases';

/** Every platform table, its columns and its indexes: the same on both databases. */
const SCHEMA: Record<string, { columns: string[]; indexes: string[] }> = {
  idempotency_record: {
    columns: ['id', 'request_hash', 'status', 'body', 'headers', 'expires_at'],
    indexes: ['idx_idempotency_expires'],
  },
  timer: {
    columns: ['id', 'owner', 'due_at', 'payload', 'status', 'attempts', 'lease_until', 'fired_at'],
    indexes: ['idx_timer_status_due'],
  },
  process_checkpoint: { columns: ['name', 'position', 'updated_at'], indexes: [] },
  read_model_generation: {
    columns: ['name', 'version', 'generation', 'status', 'file', 'created_at', 'activated_at'],
    indexes: ['idx_generation_status'],
  },
  alert_evaluation: { columns: ['rule_id', 'evaluated_at', 'current_value'], indexes: [] },
  webhook_delivery: {
    columns: [
      'id',
      'endpoint_id',
      'account_id',
      'source_event_id',
      'event_id',
      'event_type',
      'payload',
      'status',
      'attempts',
      'next_attempt_at',
      'lease_until',
      'created_at',
      'updated_at',
    ],
    indexes: ['idx_webhook_delivery_due', 'idx_webhook_delivery_source'],
  },
  webhook_attempt: {
    columns: [
      'seq',
      'delivery_id',
      'endpoint_id',
      'attempt',
      'status_code',
      'error',
      'duration_ms',
      'attempted_at',
      'outcome',
      'next_attempt_at',
    ],
    indexes: ['idx_webhook_attempt_delivery', 'idx_webhook_attempt_endpoint'],
  },
  dead_letter: {
    columns: [
      'kind',
      'name',
      'position',
      'version',
      'generation',
      'stream_id',
      'event_id',
      'event_type',
      'error',
      'first_failed_at',
      'last_failed_at',
      'attempts',
      'status',
      'retried_at',
      'resolved_at',
    ],
    indexes: ['idx_dead_letter_status'],
  },
};

async function schemaOf(source: DataSource): Promise<Record<string, { columns: string[]; indexes: string[] }>> {
  const schema: Record<string, { columns: string[]; indexes: string[] }> = {};
  for (const table of Object.keys(SCHEMA)) {
    if (dialectOf(source) === 'sqlite') {
      const columns = (await source.query(`PRAGMA table_info(${table})`)) as Array<{ name: string }>;
      const indexes = (await source.query(`PRAGMA index_list(${table})`)) as Array<{ name: string; origin: string }>;
      schema[table] = {
        columns: columns.map((c) => c.name),
        indexes: indexes
          .filter((i) => i.origin === 'c')
          .map((i) => i.name)
          .sort(),
      };
    } else {
      const columns = (await source.query(
        'SELECT column_name AS name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
        [table],
      )) as Array<{ name: string }>;
      const indexes = (await source.query(
        "SELECT indexname AS name FROM pg_indexes WHERE tablename = $1 AND indexname NOT LIKE '%_pkey' ORDER BY indexname",
        [table],
      )) as Array<{ name: string }>;
      schema[table] = { columns: columns.map((c) => c.name), indexes: indexes.map((i) => i.name) };
    }
  }
  return schema;
}

const migrationsRun = async (source: DataSource) =>
  ((await source.query('SELECT name FROM migrations ORDER BY id')) as Array<{ name: string }>).map((m) => m.name);

describeEachPlatformDatabase('the platform database', (databases) => {
  let database: PlatformDatabase;

  beforeEach(async () => {
    database = await databases.fresh();
  });

  it('migrations build every table, column and index on an empty database, and a restart runs none again', async () => {
    const first = await database.open();
    expect(dialectOf(first)).toBe(databases.dialect);
    expect(await schemaOf(first)).toEqual(SCHEMA);
    const names = await migrationsRun(first);
    expect(names).toHaveLength(5);
    expect(
      names.every(
        (n) =>
          n.startsWith(databases.dialect === 'postgres' ? 'Pg' : '') &&
          !(databases.dialect === 'sqlite' && n.startsWith('Pg')),
      ),
    ).toBe(true);
    await first
      .getRepository(AlertEvaluation)
      .insert({ ruleId: 'rule-1', evaluatedAt: '2030-01-01T00:00:00.000Z', currentValue: 0.25 });
    await first.destroy();

    const again = await database.open();
    expect(await migrationsRun(again)).toEqual(names);
    expect(await again.getRepository(AlertEvaluation).findOneBy({ ruleId: 'rule-1' })).toEqual({
      ruleId: 'rule-1',
      evaluatedAt: '2030-01-01T00:00:00.000Z',
      currentValue: 0.25,
    });
  });

  it('processes starting together on an empty database migrate it once', async () => {
    const sources = await Promise.all([1, 2, 3].map(() => database.open()));
    for (const source of sources) expect(await migrationsRun(source)).toHaveLength(5);
  });

  describe('read-model registry', () => {
    let platform: DataSource;
    let registry: ReadModelRegistry;
    const now = '2030-01-01T00:00:00.000Z';

    beforeEach(async () => {
      platform = await database.open();
      registry = new ReadModelRegistry(platform, database.dataDir);
    });

    it('numbers generations per read model and switches the active one in one step', async () => {
      const g1 = await registry.create('orders', 1, now);
      expect(g1).toMatchObject({
        name: 'orders',
        version: 1,
        generation: 1,
        status: 'building',
        file: path.join(database.dataDir, 'read-models', 'orders', 'v1.g1.sqlite'),
      });
      expect((await registry.create('other', 1, now)).generation).toBe(1);
      await registry.activate('orders', 1, 1, now);
      const g2 = await registry.create('orders', 2, now);
      expect(g2.generation).toBe(2);
      expect(await registry.building('orders', 2)).toMatchObject({ generation: 2, createdAt: now, activatedAt: null });
      const g3 = await registry.create('orders', 1, now);
      await registry.activate('orders', 1, g3.generation, '2030-01-02T00:00:00.000Z');
      expect(await registry.active('orders', 1)).toMatchObject({
        generation: 3,
        activatedAt: '2030-01-02T00:00:00.000Z',
      });
      expect((await registry.retired('orders')).map((g) => g.generation)).toEqual([1]);
      expect((await registry.all()).map((g) => `${g.name} v${g.version} g${g.generation} ${g.status}`)).toEqual([
        'orders v1 g1 retired',
        'orders v1 g3 active',
        'orders v2 g2 building',
        'other v1 g1 building',
      ]);
    });

    it('processes creating and activating at once get distinct generations and leave one active', async () => {
      const registries = [
        registry,
        ...(await Promise.all(
          [1, 2, 3].map(async () => new ReadModelRegistry(await database.open(), database.dataDir)),
        )),
      ];
      const created = await Promise.all(registries.map((r) => r.create('orders', 1, now)));
      expect(created.map((g) => g.generation).sort()).toEqual([1, 2, 3, 4]);
      await Promise.all(registries.map((r, i) => r.activate('orders', 1, created[i].generation, now)));
      expect(await platform.getRepository(ReadModelGeneration).countBy({ name: 'orders', status: 'active' })).toBe(1);
    });
  });

  it("records each round's alert evaluations, replacing the previous ones", async () => {
    const platform = await database.open();
    const writes = alertEvaluationWrites(platform);
    await writes.save('2030-01-01T00:00:00.000Z', [
      { ruleId: 'r-1', value: 1.5 },
      { ruleId: 'r-2', value: null },
    ]);
    await writes.save('2030-01-01T00:01:00.000Z', [
      { ruleId: 'r-2', value: 0.1 + 0.2 },
      { ruleId: 'r-3', value: 7 },
    ]);
    await writes.save('2030-01-01T00:02:00.000Z', []);
    expect(await platform.getRepository(AlertEvaluation).find({ order: { ruleId: 'ASC' } })).toEqual([
      { ruleId: 'r-1', evaluatedAt: '2030-01-01T00:00:00.000Z', currentValue: 1.5 },
      { ruleId: 'r-2', evaluatedAt: '2030-01-01T00:01:00.000Z', currentValue: 0.1 + 0.2 },
      { ruleId: 'r-3', evaluatedAt: '2030-01-01T00:01:00.000Z', currentValue: 7 },
    ]);
  });
});
