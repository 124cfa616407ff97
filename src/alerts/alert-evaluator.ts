import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { Clock } from '../platform/clock/clock';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { allOf, andThen, type Awaitable } from '../platform/awaitable';
import { derivedUuid } from '../platform/ids/derived-id';
import {
  alertsQueries,
  type AlertsQueries,
  type EnabledRuleRow as RuleRow,
  ALERTS_READ_MODEL,
} from '../../projections/alerts/queries';
import {
  alertSamplesQueries,
  type AlertSamplesQueries,
  type SampleScope,
  ALERT_SAMPLES_READ_MODEL,
} from '../../projections/alert-samples/queries';
import { ReadModels } from '../read-models/read-models.service';
import { alertRuleStream, type AlertRuleStateEvent, type AlertState } from './alert-rule.events';
import { alertEvaluationWrites, type AlertEvaluationWrites } from './alert-evaluation-writes';
import { metricValue, stateFor, WINDOW_MS, type WindowData } from './evaluation';

const READ_MODELS = [ALERTS_READ_MODEL, ALERT_SAMPLES_READ_MODEL];

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
@Injectable()
export class AlertEvaluator {
  private readonly rules: AlertsQueries;
  private readonly samples: AlertSamplesQueries;
  private readonly evaluations: AlertEvaluationWrites;

  constructor(
    private readonly readModels: ReadModels,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_DB) platform: DataSource,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.evaluations = alertEvaluationWrites(platform);
    this.rules = alertsQueries(readModels);
    this.samples = alertSamplesQueries(readModels);
  }

  async evaluate(): Promise<EvaluationRound> {
    const started = performance.now();
    const nowMs = this.clock.nowMs();
    const evaluatedAt = new Date(nowMs).toISOString();
    // A round judges everything that happened before it: the rules and samples read models catch
    // up to the log's head first, or a busy (or slow-disk) moment would count a window short.
    await this.readModels.waitFor(await this.store.headPosition(), READ_MODELS);
    const { rows: rules } = await this.rules.enabledRules();
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
        data: {
          ruleId: rule.id,
          accountId: rule.account_id,
          projectId: rule.project_id,
          name: rule.name,
          metric: rule.metric,
          from: rule.current_state,
          to,
          since: evaluatedAt,
          currentValue: value,
          evaluatedAt,
        },
      };
      // all at once: the store commits them together
      appends.push(
        this.store.append(alertRuleStream(rule.id), [
          {
            id: derivedUuid(`alert-evaluation:${rule.id}@${evaluatedAt}`),
            type: event.type,
            data: event.data,
            metadata: {
              schemaVersion: 1,
              actor: 'system:alert-evaluator',
              correlationId: derivedUuid(`alert-round@${evaluatedAt}`),
              causationId: null,
              occurredAt: evaluatedAt,
            },
          },
        ]),
      );
      transitions.push({ ruleId: rule.id, from: rule.current_state, to, currentValue: value });
    }
    const appended = await Promise.all(appends);
    const last = appended.reduce<Position | null>(
      (max, a) => (max === null || a.position > max ? a.position : max),
      null,
    );
    await this.evaluations.save(
      evaluatedAt,
      results.map(({ rule, value }) => ({ ruleId: rule.id, value })),
    );
    if (last) await this.readModels.waitFor(last, [ALERTS_READ_MODEL]);
    const ms = performance.now() - started;
    this.metrics?.alertEvaluations.inc();
    this.metrics?.alertRulesEvaluated.inc(results.length);
    this.metrics?.alertEvaluationDuration.observe(ms / 1000);
    return { evaluatedAt, evaluated: results.length, transitions, ms };
  }

  /** The rule's scope over (now - window, now]: one indexed range per sample kind, read once per round. */
  private window(rule: RuleRow, nowMs: number, memo: Map<string, unknown>): Awaitable<WindowData> {
    const scope: SampleScope =
      rule.project_id === null
        ? { column: 'account_id', id: rule.account_id }
        : { column: 'project_id', id: rule.project_id };
    const from = nowMs - WINDOW_MS[rule.window_duration];
    const once = <T>(what: string, read: () => Awaitable<T>): Awaitable<T> => {
      const key = `${scope.column}\u0000${scope.id}\u0000${rule.window_duration}\u0000${what}`;
      if (!memo.has(key)) memo.set(key, read());
      return memo.get(key) as Awaitable<T>;
    };
    const sum = (kind: string) => once(kind, () => this.samples.sum(scope, kind, from, nowMs));
    const latency = rule.metric === 'turn_latency_p50' || rule.metric === 'turn_latency_p95';
    const latencies: Awaitable<number[]> = latency
      ? once('latencies', () => this.samples.latencies(scope, from, nowMs))
      : [];
    const turns: Awaitable<number> = latency
      ? andThen(latencies, (values) => values.length)
      : once('turns', () => this.samples.turns(scope, from, nowMs));
    const parts = allOf<[number[], number, number, number, number, number]>([
      latencies,
      turns,
      sum('call'),
      rule.metric === 'api_errors' ? sum('api_errors') : 0,
      rule.metric === 'function_errors' ? sum('function_errors') : 0,
      rule.metric === 'call_crashes' ? sum('crash') : 0,
    ]);
    return andThen(parts, ([latencies, turns, calls, apiErrors, functionErrors, crashes]) => ({
      latencies,
      turns,
      calls,
      apiErrors,
      functionErrors,
      crashes,
    }));
  }
}
