import type { DomainEvent } from '../commands/decider';

export const METRICS = [
  'turn_latency_p50',
  'turn_latency_p95',
  'api_errors',
  'function_errors',
  'call_crashes',
  'call_volume',
] as const;
export type Metric = (typeof METRICS)[number];
export const OPERATORS = ['>', '>=', '<', '<='] as const;
export type Operator = (typeof OPERATORS)[number];
export const WINDOWS = ['5m', '10m', '60m'] as const;
export type WindowDuration = (typeof WINDOWS)[number];
export type AlertState = 'ok' | 'alert' | 'no_data' | 'unknown';

export interface RuleSettings {
  name: string;
  /** bare agent id; null watches the whole account */
  projectId: string | null;
  metric: Metric;
  operator: Operator;
  thresholdValue: number;
  windowDuration: WindowDuration;
  enabled: boolean;
}

/** The rules of one account live in one stream, so the 10-rule limit is decided on all of them. */
export type AlertRulesEvent =
  | DomainEvent<'AlertRuleCreated', RuleSettings & { ruleId: string; accountId: string; createdAt: string }>
  | DomainEvent<
      'AlertRuleUpdated',
      { ruleId: string; accountId: string; changes: Partial<RuleSettings>; updatedAt: string }
    >
  | DomainEvent<'AlertRuleDeleted', { ruleId: string; accountId: string; deletedAt: string }>;

/** Evaluations of one rule: its own stream, so evaluating never contends with editing. */
export type AlertRuleStateEvent = DomainEvent<
  'AlertRuleStateChanged',
  {
    ruleId: string;
    accountId: string;
    projectId: string | null;
    name: string;
    metric: Metric;
    from: AlertState;
    to: AlertState;
    since: string;
    currentValue: number | null;
    evaluatedAt: string;
  }
>;

export const alertRulesStream = (accountId: string) => `alert-rules-${accountId}`;
export const alertRuleStream = (ruleId: string) => `alert-rule-${ruleId}`;
