import { Inject, Injectable } from '@nestjs/common';
import { In, type DataSource } from 'typeorm';
import {
  alertsQueries,
  type AlertRule as AlertRuleRow,
  type AlertsQueries,
  type RuleFilter,
  ALERTS_READ_MODEL,
} from '../../projections/alerts/queries';
import { AlertEvaluation } from './alert-evaluation.entity';
import { PLATFORM_DB } from '../platform/database/platform-database';
import type { AgentDirectory } from '../platform/auth/agent-directory';
import { AGENT_DIRECTORY } from '../platform/auth/agent-directory';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { queryParam } from '../platform/http/query-params';
import { badRequest, DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { agentRef, tryParseAgentId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import { alertRulesStream, METRICS, type AlertRulesEvent, type RuleSettings } from './alert-rule.events';
import { alertRulesDecider, type AlertRulesCommand, type AlertRulesState } from './alert-rules.decider';
import type { CreateAlertRuleDto, PatchAlertRuleDto } from './alert-rules.dto';
import { assertReachesRule, reachesRule, type AgentScope } from './alert-rule-scope';

const RULE_ID = /^ar_[a-z0-9]{8,40}$/;
const STATES = ['ok', 'alert', 'no_data', 'unknown'];

type WithoutNow<C> = C extends unknown ? Omit<C, 'now'> : never;

/** The rule object of contract §12; the latest evaluation, when there is one, gives its time and value. */
function ruleView(row: AlertRuleRow, evaluation?: AlertEvaluation | null) {
  return {
    id: row.id,
    name: row.name,
    project_id: row.projectId === null ? null : agentRef(row.projectId),
    metric: row.metric,
    operator: row.operator,
    threshold_value: row.thresholdValue,
    window_duration: row.windowDuration,
    enabled: row.enabled,
    current_state: row.currentState,
    since: row.since,
    last_evaluated_at: evaluation?.evaluatedAt ?? row.lastEvaluatedAt,
    current_value: evaluation ? evaluation.currentValue : row.currentValue,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * Alert rules of contract §12: commands on the account's rules stream, reads from the alerts read
 * model. Every method takes the calling key's agent scope (alert-rule-scope.ts).
 */
@Injectable()
export class AlertRulesService {
  private readonly rules: AlertsQueries;
  /** the one handler of an account's alert rules streams */
  private readonly streams: CommandHandler<AlertRulesState, AlertRulesCommand, AlertRulesEvent>;

  constructor(
    commands: Commands,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly readModels: ReadModels,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    @Inject(PLATFORM_DB) private readonly platform: DataSource,
  ) {
    this.rules = alertsQueries(readModels);
    this.streams = commands.for(alertRulesDecider);
  }

  /** Rule objects with their latest evaluations. */
  private async views(rows: AlertRuleRow[]) {
    const evaluations = rows.length
      ? await this.platform.getRepository(AlertEvaluation).findBy({ ruleId: In(rows.map((r) => r.id)) })
      : [];
    const byRule = new Map(evaluations.map((e) => [e.ruleId, e]));
    return rows.map((row) => ruleView(row, byRule.get(row.id)));
  }

  async create(accountId: string, scope: AgentScope, dto: CreateAlertRuleDto, context: CommandContext) {
    const ruleId = `ar_${this.ids.short(12)}`;
    const projectId = await this.project(accountId, dto.project_id, 'body', scope);
    const settings: RuleSettings = {
      name: dto.name,
      projectId,
      metric: dto.metric,
      operator: dto.operator,
      thresholdValue: dto.threshold_value,
      windowDuration: dto.window_duration,
      enabled: dto.enabled ?? true,
    };
    await this.execute(accountId, { type: 'CreateRule', ruleId, accountId, settings }, context);
    return this.get(accountId, scope, ruleId);
  }

  async list(accountId: string, scope: AgentScope, query: Record<string, unknown>) {
    const where = await this.filterOf(accountId, scope, query);
    const state = stringParam(query, 'state');
    if (state !== undefined) {
      if (!STATES.includes(state)) throw invalid('state', `state must be one of ${STATES.join(', ')}`);
      where.currentState = state;
    }
    const rows = await this.rules.rules(accountId, where);
    return { data: await this.views(rows.filter((row) => reachesRule(scope, row.projectId))) };
  }

  /** The filters the rule list and the alert list share (contract §12): `project_id`, `metric`, `enabled`. */
  private async filterOf(accountId: string, scope: AgentScope, query: Record<string, unknown>): Promise<RuleFilter> {
    const where: RuleFilter = {};
    const project = stringParam(query, 'project_id');
    if (project !== undefined) where.projectId = await this.project(accountId, project, 'query', scope);
    const metric = stringParam(query, 'metric');
    if (metric !== undefined) {
      if (!(METRICS as readonly string[]).includes(metric))
        throw invalid('metric', `metric must be one of ${METRICS.join(', ')}`);
      where.metric = metric;
    }
    const enabled = stringParam(query, 'enabled');
    if (enabled !== undefined) {
      if (enabled !== 'true' && enabled !== 'false') throw invalid('enabled', 'enabled must be true or false');
      where.enabled = enabled === 'true';
    }
    return where;
  }

  /** GET /v1/alerts: the rules now firing, of the agents the key reaches, filtered like the rule list. */
  async firing(accountId: string, scope: AgentScope, query: Record<string, unknown> = {}) {
    const all = await this.rules.firing(accountId, await this.filterOf(accountId, scope, query));
    const rows = all.filter((row) => reachesRule(scope, row.projectId));
    return {
      data: (await this.views(rows)).map((rule) => {
        const {
          id,
          name,
          project_id,
          metric,
          operator,
          threshold_value,
          window_duration,
          since,
          last_evaluated_at,
          current_value,
        } = rule;
        return {
          alert_rule_id: id,
          name,
          project_id,
          metric,
          operator,
          threshold_value,
          window_duration,
          since,
          last_evaluated_at,
          current_value,
        };
      }),
    };
  }

  async get(accountId: string, scope: AgentScope, ruleId: string) {
    return (await this.views([await this.reachableRule(accountId, scope, ruleId)]))[0];
  }

  /** The live rule, when the key reaches it: 404 when there is none, 403 when it is out of scope. */
  private async reachableRule(accountId: string, scope: AgentScope, ruleId: string): Promise<AlertRuleRow> {
    checkId(ruleId);
    const row = await this.rules.rule(accountId, ruleId);
    if (!row || row.deletedAt !== null) throw new DomainError('ALERT_RULE_NOT_FOUND', 'alert rule not found', 404);
    assertReachesRule(scope, row.projectId);
    return row;
  }

  async patch(accountId: string, scope: AgentScope, ruleId: string, dto: PatchAlertRuleDto, context: CommandContext) {
    // the rule as it is and as it would be must both be in scope (moving a rule out is writing outside)
    await this.reachableRule(accountId, scope, ruleId);
    const changes: Partial<RuleSettings> = {
      name: dto.name,
      projectId:
        dto.project_id === undefined ? undefined : await this.project(accountId, dto.project_id, 'body', scope),
      metric: dto.metric,
      operator: dto.operator,
      thresholdValue: dto.threshold_value,
      windowDuration: dto.window_duration,
      enabled: dto.enabled,
    };
    await this.execute(accountId, { type: 'UpdateRule', ruleId, accountId, changes }, context);
    return this.get(accountId, scope, ruleId);
  }

  async delete(accountId: string, scope: AgentScope, ruleId: string, context: CommandContext): Promise<void> {
    await this.reachableRule(accountId, scope, ruleId);
    await this.execute(accountId, { type: 'DeleteRule', ruleId, accountId }, context);
  }

  private async execute(
    accountId: string,
    command: WithoutNow<AlertRulesCommand>,
    context: CommandContext,
  ): Promise<AlertRulesEvent[]> {
    const result = await this.streams.handle(
      alertRulesStream(accountId),
      { ...command, now: this.clock.nowIso() } as AlertRulesCommand,
      context,
    );
    await this.readModels.waitFor(result.position, [ALERTS_READ_MODEL]);
    return result.events;
  }

  /**
   * A project of this account (prefixed or bare), or null for the whole account, that the key
   * reaches (a filter for the whole account, in a query, is no filter and always reachable).
   */
  private async project(
    accountId: string,
    raw: string | null | undefined,
    where: 'body' | 'query',
    scope: AgentScope,
  ): Promise<string | null> {
    if (raw === undefined || raw === null || raw === '') {
      if (where === 'body') assertReachesRule(scope, null);
      return null;
    }
    const agentId = tryParseAgentId(raw);
    if (agentId === null)
      throw new DomainError('INVALID_PROJECT_ID', 'project_id is malformed', 422, null, [
        { field: 'project_id', message: 'malformed project id' },
      ]);
    assertReachesRule(scope, agentId);
    if ((await this.agents.accountOf(agentId)) !== accountId) {
      if (where === 'query') return agentId;
      throw new DomainError('PROJECT_NOT_FOUND', 'project_id names no project of this account', 404, null, [
        { field: 'project_id', message: 'no such project' },
      ]);
    }
    return agentId;
  }
}

function checkId(ruleId: string): void {
  if (!RULE_ID.test(ruleId))
    throw new DomainError(
      'INVALID_ALERT_RULE_ID',
      `alert rule id ${JSON.stringify(ruleId)} is malformed (ar_<letters and digits>)`,
      422,
      null,
      [{ field: 'rule_id', message: 'malformed id' }],
    );
}

/** An empty filter is no filter. */
function stringParam(query: Record<string, unknown>, name: string): string | undefined {
  return queryParam(query, name) || undefined;
}

const invalid = (field: string, message: string) => badRequest('VALIDATION_ERROR', message, [{ field, message }]);
