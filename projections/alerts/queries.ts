import { IsNull, type DataSource, type FindOptionsWhere } from 'typeorm';
import type { AlertState, Metric, Operator, WindowDuration } from '../../src/alerts/alert-rule.events';
import type { Awaitable } from '../../src/platform/awaitable';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Plain, ReadModelSources } from '../query-kit';
import { AlertRuleRow } from './alerts.entities';
import { ALERTS_READ_MODEL } from './name';

export { ALERTS_READ_MODEL } from './name';

export type AlertRule = Plain<AlertRuleRow>;

/** An enabled rule as the evaluator reads it each round. */
export interface EnabledRuleRow {
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

/** Which live rules of an account a listing selects (each filter only when given). */
export interface RuleFilter {
  projectId?: string | null;
  metric?: string;
  enabled?: boolean;
  currentState?: string;
}

/** The alerts read model's queries: the rules and where each stands. */
export interface AlertsQueries {
  /** The account's live rules that pass the filter, oldest first. */
  rules(accountId: string, filter: RuleFilter): Promise<AlertRule[]>;
  /**
   * The account's rules now firing, longest first: enabled ones unless the filter asks for
   * disabled ones (a rule disabled while it fired keeps its state).
   */
  firing(accountId: string, filter?: Omit<RuleFilter, 'currentState'>): Promise<AlertRule[]>;
  /** The rule (deleted ones too, with deletedAt). */
  rule(accountId: string, ruleId: string): Promise<AlertRule | null>;
  /** Prepared (every evaluation round): every enabled live rule. */
  enabledRules(): Awaitable<{ rows: EnabledRuleRow[]; switched: boolean }>;
}

class AlertsReadModel implements AlertsQueries {
  private readonly enabled: ReadQuery<EnabledRuleRow>;

  constructor(private readonly source: () => DataSource) {
    // `WHERE enabled`: SQLite's 0/1 and PostgreSQL's boolean both read as a condition
    this.enabled = new ReadQuery(source, 'SELECT * FROM alert_rule WHERE deleted_at IS NULL AND enabled');
  }

  rules(accountId: string, filter: RuleFilter) {
    const where: Record<string, unknown> = { accountId, deletedAt: IsNull(), ...filter };
    return this.source()
      .getRepository(AlertRuleRow)
      .find({ where: where as FindOptionsWhere<AlertRuleRow>, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  firing(accountId: string, filter: Omit<RuleFilter, 'currentState'> = {}) {
    const where: Record<string, unknown> = {
      accountId,
      deletedAt: IsNull(),
      ...filter,
      currentState: 'alert',
      enabled: filter.enabled ?? true,
    };
    return this.source()
      .getRepository(AlertRuleRow)
      .find({ where: where as FindOptionsWhere<AlertRuleRow>, order: { since: 'ASC' } });
  }

  rule(accountId: string, ruleId: string) {
    return this.source().getRepository(AlertRuleRow).findOneBy({ id: ruleId, accountId });
  }

  enabledRules() {
    return this.enabled.all();
  }
}

/** The alerts read model's queries on whichever generation serves now (one implementation for both databases). */
export function alertsQueries(readModels: ReadModelSources): AlertsQueries {
  return new AlertsReadModel(() => readModels.source(ALERTS_READ_MODEL));
}
