import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import type { Clock } from '../platform/clock/clock';
import type { Metrics } from '../platform/metrics/metrics';
import { rawConnection } from '../platform/database/raw-connection';
import { derivedUuid } from '../platform/ids/derived-id';
import type { ReadModels } from '../read-models/read-models.service';
import { alertRuleStream, type AlertRuleStateEvent, type AlertState, type Metric, type Operator, type WindowDuration } from './alert-rule.events';
import { alertEvaluationWrites, type AlertEvaluationWrites } from './alert-evaluation-writes';
import { metricValue, stateFor, WINDOW_MS, type WindowData } from './evaluation';

interface RuleRow {
  id: string;
  account_id: string;
  project_id: string | null;
  name: string;
  metric: Metric;
  operator: Operator;
  threshold_value: number;
  window_duration: WindowDuration;
  current_state: AlertState;
}

export interface EvaluationRound {
  evaluatedAt: string;
  evaluated: number;
  transitions: Array<{ ruleId: string; from: AlertState; to: AlertState; currentValue: number | null }>;
  ms: number;
}

/**
 * Evaluates every enabled rule over its window ending now (contract §12): reads the samples read
 * model, records each state change as an event on the rule's stream (its id derived from the rule
 * and the instant, so a retried round appends nothing twice), and keeps each rule's latest value.
 */
export class AlertEvaluator {
  private statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
  private readonly evaluations: AlertEvaluationWrites;

  constructor(
    private readonly readModels: ReadModels,
    private readonly store: EventStore,
    platform: DataSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
  ) {
    this.evaluations = alertEvaluationWrites(platform);
  }

  async evaluate(): Promise<EvaluationRound> {
    const started = performance.now();
    const nowMs = this.clock.nowMs();
    const evaluatedAt = new Date(nowMs).toISOString();
    const rules = this.prepare(rawConnection(this.readModels.source('alerts')), 'SELECT * FROM alert_rule WHERE deleted_at IS NULL AND enabled = 1').all() as RuleRow[];
    const samples = rawConnection(this.readModels.source('alert-samples'));
    // An account's rules mostly share scopes and windows: each range is read once a round.
    const memo = new Map<string, unknown>();
    const results = rules.map((rule) => {
      let value: number | null = null;
      let to: AlertState;
      try {
        value = metricValue(rule.metric, this.window(samples, rule, nowMs, memo));
        to = stateFor(value, rule.operator, rule.threshold_value);
      } catch (error) {
        this.logger.warn({ err: error, rule: rule.id }, 'alert rule could not be evaluated');
        to = 'unknown';
      }
      return { rule, value, to };
    });
    const transitions: EvaluationRound['transitions'] = [];
    const appends: Array<Promise<{ position: Position }>> = [];
    for (const { rule, value, to } of results) {
      if (to === rule.current_state) continue;
      const event: AlertRuleStateEvent = {
        type: 'AlertRuleStateChanged',
        data: { ruleId: rule.id, accountId: rule.account_id, projectId: rule.project_id, name: rule.name, metric: rule.metric, from: rule.current_state, to, since: evaluatedAt, currentValue: value, evaluatedAt },
      };
      // all at once: the store commits them together
      appends.push(
        this.store.append(alertRuleStream(rule.id), [
          { id: derivedUuid(`alert-evaluation:${rule.id}@${evaluatedAt}`), type: event.type, data: event.data, metadata: { schemaVersion: 1, actor: 'system:alert-evaluator', correlationId: derivedUuid(`alert-round@${evaluatedAt}`), causationId: null, occurredAt: evaluatedAt } },
        ]),
      );
      transitions.push({ ruleId: rule.id, from: rule.current_state, to, currentValue: value });
    }
    const appended = await Promise.all(appends);
    const last = appended.reduce<Position | null>((max, a) => (max === null || a.position > max ? a.position : max), null);
    await this.evaluations.save(evaluatedAt, results.map(({ rule, value }) => ({ ruleId: rule.id, value })));
    if (last) await this.readModels.waitFor(last, ['alerts']);
    const ms = performance.now() - started;
    this.metrics?.alertEvaluations.inc();
    this.metrics?.alertRulesEvaluated.inc(results.length);
    this.metrics?.alertEvaluationDuration.observe(ms / 1000);
    return { evaluatedAt, evaluated: results.length, transitions, ms };
  }

  /** The rule's scope over [now - window, now): one indexed range per sample kind, read once per round. */
  private window(db: Database.Database, rule: RuleRow, nowMs: number, memo: Map<string, unknown>): WindowData {
    const scope = rule.project_id === null ? 'account_id' : 'project_id';
    const id = rule.project_id ?? rule.account_id;
    const from = nowMs - WINDOW_MS[rule.window_duration];
    const once = <T>(what: string, read: () => T): T => {
      const key = `${scope}\u0000${id}\u0000${rule.window_duration}\u0000${what}`;
      if (!memo.has(key)) memo.set(key, read());
      return memo.get(key) as T;
    };
    const sum = (kind: string) =>
      once(kind, () => (this.prepare(db, `SELECT total(value) AS v FROM sample WHERE ${scope} = ? AND kind = ? AND at_ms >= ? AND at_ms < ?`).get(id, kind, from, nowMs) as { v: number }).v);
    const latency = rule.metric === 'turn_latency_p50' || rule.metric === 'turn_latency_p95';
    const latencies = latency
      ? once('latencies', () => (this.prepare(db, `SELECT value FROM sample WHERE ${scope} = ? AND kind = 'latency' AND at_ms >= ? AND at_ms < ? ORDER BY value`).all(id, from, nowMs) as Array<{ value: number }>).map((r) => r.value))
      : [];
    const turns = latency
      ? latencies.length
      : once('turns', () => (this.prepare(db, `SELECT count(*) AS n FROM sample WHERE ${scope} = ? AND kind = 'latency' AND at_ms >= ? AND at_ms < ?`).get(id, from, nowMs) as { n: number }).n);
    return {
      latencies,
      turns,
      calls: sum('call'),
      apiErrors: rule.metric === 'api_errors' ? sum('api_errors') : 0,
      functionErrors: rule.metric === 'function_errors' ? sum('function_errors') : 0,
      crashes: rule.metric === 'call_crashes' ? sum('crash') : 0,
    };
  }

  private prepare(db: Database.Database, sql: string): Database.Statement {
    let cache = this.statements.get(db);
    if (!cache) this.statements.set(db, (cache = new Map()));
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  }
}
