import { openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { alertSamplesProjection } from '../../projections/alert-samples/alert-samples.projection';
import { alertsProjection } from '../../projections/alerts/alerts.projection';
import { AlertEvaluator } from '../../src/alerts/alert-evaluator';
import { METRICS, OPERATORS, WINDOWS } from '../../src/alerts/alert-rule.events';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { sqlitePosition } from '../../src/event-store/sqlite/rows';
import { SystemClock } from '../../src/platform/clock/clock';
import { openAppDatabase } from '../../src/app.database';
import { rawConnection } from '../../src/platform/database/raw-connection';
import { catchUp } from '../../src/read-models/generations/catch-up';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import type { ReadModels } from '../../src/read-models/read-models.service';
import type { BenchCase, Result } from '../lib/case';
import { profiled } from '../lib/profile';
import type { BenchContext } from '../lib/context';
import { median } from '../lib/measure';
import { dataset } from './conversations';

const ACCOUNTS = 1000;
const RULES_PER_ACCOUNT = 10;

/**
 * One evaluation round of 10 rules x 1,000 accounts over 1,000,000 samples of the last hour. The
 * rules and samples are written straight into the two read models (what is measured is the round:
 * the window queries, the transitions appended as events, the evaluation records); between rounds
 * the alerts projection applies the transitions, as the running server's would.
 */
async function evaluationRounds(
  ctx: BenchContext,
): Promise<{ first: number; steady: number[]; transitions: number; rules: number }> {
  return ctx.shared('alerts-evaluation', async () => {
    const samplesTotal = ctx.quick ? 100_000 : 1_000_000;
    const dir = ctx.file('alerts-eval');
    fs.mkdirSync(path.join(dir, 'read-models'), { recursive: true });
    const store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'full' });
    const platform = await openAppDatabase(dir);
    const alerts = await openReadModel(alertsProjection, path.join(dir, 'read-models', 'alerts.sqlite'));
    const samples = await openReadModel(alertSamplesProjection, path.join(dir, 'read-models', 'samples.sqlite'));
    try {
      const nowMs = Date.now();
      ctx.log(`alerts: ${ACCOUNTS * RULES_PER_ACCOUNT} rules, ${samplesTotal.toLocaleString('en-US')} samples`);
      const rulesDb = rawConnection(alerts);
      const insertRule =
        rulesDb.prepare(`INSERT INTO alert_rule (id, account_id, project_id, name, metric, operator, threshold_value, window_duration, enabled, current_state, since, last_evaluated_at, current_value, created_at, updated_at, deleted_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 'ok', ?, NULL, NULL, ?, ?, NULL)`);
      const created = new Date(nowMs - 3_600_000).toISOString();
      rulesDb.transaction(() => {
        for (let a = 0; a < ACCOUNTS; a++) {
          for (let r = 0; r < RULES_PER_ACCOUNT; r++) {
            const metric = METRICS[r % METRICS.length];
            const threshold = metric.startsWith('turn_latency') ? 800 : metric === 'call_volume' ? 30 : 3;
            insertRule.run(
              `ar_bench${a}x${r}`,
              `acc${a}`,
              r % 2 === 0 ? `proj${a}` : null,
              `rule ${r}`,
              metric,
              OPERATORS[r % 2 === 0 ? 1 : 0],
              threshold,
              WINDOWS[r % WINDOWS.length],
              created,
              created,
              created,
            );
          }
        }
      })();
      const samplesDb = rawConnection(samples);
      const insertSample = samplesDb.prepare(
        'INSERT INTO sample (account_id, project_id, kind, at_ms, value) VALUES (?, ?, ?, ?, ?)',
      );
      let seed = 42;
      const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      for (let done = 0; done < samplesTotal; done += 100_000) {
        samplesDb.transaction(() => {
          for (let i = 0; i < Math.min(100_000, samplesTotal - done); i++) {
            const a = Math.floor(random() * ACCOUNTS);
            const roll = random();
            const kind =
              roll < 0.7
                ? 'latency'
                : roll < 0.85
                  ? 'call'
                  : roll < 0.9
                    ? 'api_errors'
                    : roll < 0.95
                      ? 'function_errors'
                      : 'crash';
            insertSample.run(
              `acc${a}`,
              `proj${a}`,
              kind,
              nowMs - Math.floor(random() * 3_600_000),
              kind === 'latency' ? 200 + random() * 1500 : 1,
            );
          }
        })();
      }
      const readModels = {
        source: (name: string): DataSource => (name === 'alerts' ? alerts : samples),
        waitFor: async () => undefined,
      } as unknown as ReadModels;
      const evaluator = new AlertEvaluator(readModels, store, platform, new SystemClock(), pino({ level: 'silent' }));
      const round = async () => {
        const r = await evaluator.evaluate();
        // what the server's alerts projection does with the transitions, outside the measured round
        await catchUp(alerts, alertsProjection, store);
        return r;
      };
      const first = await round();
      const steady: number[] = [];
      for (let i = 0; i < (ctx.quick ? 2 : 5); i++) steady.push((await profiled('alerts.evaluate.round', round)).ms);
      return { first: first.ms, steady, transitions: first.transitions.length, rules: first.evaluated };
    } finally {
      await alerts.destroy();
      await samples.destroy();
      await platform.destroy();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The samples projection applying a conversations log (the seeded dataset's first events). */
async function samplesCatchUp(ctx: BenchContext): Promise<Result> {
  const data = await dataset(ctx);
  const limit = Math.min(ctx.quick ? 50_000 : 1_000_000, data.events);
  const store = await openSealedSqliteLog(data.dir);
  const file = ctx.file('alert-samples.sqlite');
  try {
    const source = await openReadModel(alertSamplesProjection, file);
    const t0 = performance.now();
    await catchUp(source, alertSamplesProjection, store, { until: sqlitePosition(limit) });
    const seconds = (performance.now() - t0) / 1000;
    const turns = (
      rawConnection(source).prepare("SELECT count(*) AS n FROM sample WHERE kind = 'latency'").get() as { n: number }
    ).n;
    await source.destroy();
    return {
      figure: limit / seconds,
      unit: 'events/s',
      note: `catchUp over the first ${limit.toLocaleString('en-US')} events of the seeded conversations (${turns.toLocaleString('en-US')} turns) in ${seconds.toFixed(1)} s`,
    };
  } finally {
    await store.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  }
}

export const alertsCases: BenchCase[] = [
  {
    name: 'alerts.evaluate.10k-rules.round',
    run: async (ctx) => {
      const r = await evaluationRounds(ctx);
      return {
        figure: median(r.steady),
        unit: 'ms',
        runs: r.steady.map((v) => +v.toFixed(1)),
        note: `${r.rules.toLocaleString('en-US')} rules (10 x 1,000 accounts) over ${ctx.quick ? '100,000' : '1,000,000'} samples; steady rounds (the first, with ${r.transitions.toLocaleString('en-US')} transitions appended: ${r.first.toFixed(0)} ms)`,
      };
    },
  },
  { name: 'alerts.samples.catch-up', run: samplesCatchUp },
];
