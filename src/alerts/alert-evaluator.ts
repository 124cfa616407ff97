import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import type { Clock } from '../platform/clock/clock';
import type { Metrics } from '../platform/metrics/metrics';
import { allOf, andThen, type Awaitable } from '../platform/awaitable';
import { derivedUuid } from '../platform/ids/derived-id';
import { ReadQuery } from '../read-models/read-query';
import type { ReadModels } from '../read-models/read-models.service';
import { alertRuleStream, type AlertRuleStateEvent, type AlertState, type Metric, type Operator, type WindowDuration } from './alert-rule.events';
import { alertEvaluationWrites, type AlertEvaluationWrites } from './alert-evaluation-writes';
import { metricValue, stateFor, WINDOW_MS, type WindowData } from './evaluation';

const READ_MODELS = ['alerts', 'alert-samples'];

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
  private readonly enabledRules: ReadQuery<RuleRow>;
  /** The sample queries by SQL text (the scope column differs); each prepared once per serving generation. */
  private readonly sampleQueries = new Map<string, ReadQuery<Record<string, number>>>();
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
    // `WHERE enabled`: SQLite's 0/1 and PostgreSQL's boolean both read as a condition
    this.enabledRules = new ReadQuery(() => readModels.source('alerts'), 'SELECT * FROM alert_rule WHERE deleted_at IS NULL AND enabled');
  }

  async evaluate(): Promise<EvaluationRound> {
    const started = performance.now();
    const nowMs = this.clock.nowMs();
    const evaluatedAt = new Date(nowMs).toISOString();
    // A round judges everything that happened before it: the rules and samples read models catch
    // up to the log's head first, or a busy (or slow-disk) moment would count a window short.
    await this.readModels.waitFor(await this.store.headPosition(), READ_MODELS);
    const { rows: rules } = await this.enabledRules.all();
    // An account's rules mostly share scopes and windows: each range is read once a round.
    const memo = new Map<string, unknown>();
    const results: Array<{ rule: RuleRow; value: number | null; to: AlertState }> = [];
    for (const rule of rules) {
      let value: number | null = null;
      let to: AlertState;
      try {
        const window = this.window(rule, nowMs, memo);
        // read at once on SQLite (no await per rule in a 10,000-rule round), awaited on PostgreSQL
        value = metricValue(rule.metric, window instanceof Promise ? await window : window);
        to = stateFor(value, rule.operator, rule.threshold_value);
      } catch (error) {
        this.logger.warn({ err: error, rule: rule.id }, 'alert rule could not be evaluated');
        to = 'unknown';
      }
      results.push({ rule, value, to });
    }
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
  private window(rule: RuleRow, nowMs: number, memo: Map<string, unknown>): Awaitable<WindowData> {
    const scope = rule.project_id === null ? 'account_id' : 'project_id';
    const id = rule.project_id ?? rule.account_id;
    const from = nowMs - WINDOW_MS[rule.window_duration];
    const once = <T>(what: string, read: () => Awaitable<T>): Awaitable<T> => {
      const key = `${scope}\u0000${id}\u0000${rule.window_duration}\u0000${what}`;
      if (!memo.has(key)) memo.set(key, read());
      return memo.get(key) as Awaitable<T>;
    };
    // coalesce(sum(...)) rather than SQLite's total(), and count(*) cast to INTEGER (PostgreSQL counts in bigint, which pg returns as a string)
    const sum = (kind: string) =>
      once(kind, () => andThen(this.samples(`SELECT coalesce(sum(value), 0) AS v FROM sample WHERE ${scope} = ? AND kind = ? AND at_ms >= ? AND at_ms < ?`).get(id, kind, from, nowMs), ({ row }) => row!.v));
    const latency = rule.metric === 'turn_latency_p50' || rule.metric === 'turn_latency_p95';
    const latencies: Awaitable<number[]> = latency
      ? once('latencies', () => andThen(this.samples(`SELECT value FROM sample WHERE ${scope} = ? AND kind = 'latency' AND at_ms >= ? AND at_ms < ? ORDER BY value`).all(id, from, nowMs), ({ rows }) => rows.map((r) => r.value)))
      : [];
    const turns: Awaitable<number> = latency
      ? andThen(latencies, (values) => values.length)
      : once('turns', () => andThen(this.samples(`SELECT CAST(count(*) AS INTEGER) AS n FROM sample WHERE ${scope} = ? AND kind = 'latency' AND at_ms >= ? AND at_ms < ?`).get(id, from, nowMs), ({ row }) => row!.n));
    const parts = allOf<[number[], number, number, number, number, number]>([
      latencies,
      turns,
      sum('call'),
      rule.metric === 'api_errors' ? sum('api_errors') : 0,
      rule.metric === 'function_errors' ? sum('function_errors') : 0,
      rule.metric === 'call_crashes' ? sum('crash') : 0,
    ]);
    return andThen(parts, ([latencies, turns, calls, apiErrors, functionErrors, crashes]) => ({ latencies, turns, calls, apiErrors, functionErrors, crashes }));
  }

  private samples(sql: string): ReadQuery<Record<string, number>> {
    let query = this.sampleQueries.get(sql);
    if (!query) this.sampleQueries.set(sql, (query = new ReadQuery(() => this.readModels.source('alert-samples'), sql)));
    return query;
  }
}
