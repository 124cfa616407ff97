import type { Decider } from '../commands/decider';
import { conflict, DomainError } from '../platform/errors/domain-error';
import { checkFields, type FieldKind } from '../platform/validation/field-checks';
import { METRICS, OPERATORS, WINDOWS, type AlertRulesEvent, type RuleSettings } from './alert-rule.events';

/** Rules per account (interface.md "Limits"); deleted rules do not count. */
export const MAX_RULES = 10;

export interface AlertRulesState {
  /** live rules by id */
  rules: ReadonlyMap<string, RuleSettings>;
  deleted: ReadonlySet<string>;
}

export type AlertRulesCommand =
  | { type: 'CreateRule'; ruleId: string; accountId: string; settings: RuleSettings; now: string }
  | { type: 'UpdateRule'; ruleId: string; accountId: string; changes: Partial<RuleSettings>; now: string }
  | { type: 'DeleteRule'; ruleId: string; accountId: string; now: string };

/** What each recorded setting must hold: the alerts projection's columns are NOT NULL but projectId. */
const SETTINGS: Record<keyof RuleSettings, FieldKind> = {
  name: 'string',
  projectId: 'string|null',
  metric: METRICS,
  operator: OPERATORS,
  thresholdValue: 'integer',
  windowDuration: WINDOWS,
  enabled: 'boolean',
};

const initialState = (): AlertRulesState => ({ rules: new Map(), deleted: new Set() });

const notFound = () => new DomainError('ALERT_RULE_NOT_FOUND', 'alert rule not found', 404);

function evolve(s: AlertRulesState, event: AlertRulesEvent): AlertRulesState {
  switch (event.type) {
    case 'AlertRuleCreated': {
      const { ruleId, accountId: _a, createdAt: _c, ...settings } = event.data;
      return { ...s, rules: new Map(s.rules).set(ruleId, settings) };
    }
    case 'AlertRuleUpdated': {
      const current = s.rules.get(event.data.ruleId);
      if (!current) return s;
      return { ...s, rules: new Map(s.rules).set(event.data.ruleId, { ...current, ...event.data.changes }) };
    }
    case 'AlertRuleDeleted': {
      const rules = new Map(s.rules);
      rules.delete(event.data.ruleId);
      return { rules, deleted: new Set(s.deleted).add(event.data.ruleId) };
    }
  }
}

function decide(command: AlertRulesCommand, s: AlertRulesState): AlertRulesEvent[] {
  switch (command.type) {
    case 'CreateRule':
      checkFields(command.settings, SETTINGS);
      if (s.rules.has(command.ruleId) || s.deleted.has(command.ruleId))
        throw conflict('ALERT_RULE_EXISTS', 'an alert rule with this id exists');
      if (s.rules.size >= MAX_RULES)
        throw conflict('ALERT_RULE_LIMIT', `an account has at most ${MAX_RULES} alert rules; delete one first`);
      return [
        {
          type: 'AlertRuleCreated',
          data: { ruleId: command.ruleId, accountId: command.accountId, ...command.settings, createdAt: command.now },
        },
      ];
    case 'UpdateRule': {
      const current = s.rules.get(command.ruleId);
      if (!current) throw notFound();
      checkFields(command.changes, SETTINGS, true);
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(([k, v]) => v !== undefined && current[k as keyof RuleSettings] !== v),
      );
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'AlertRuleUpdated',
          data: { ruleId: command.ruleId, accountId: command.accountId, changes, updatedAt: command.now },
        },
      ];
    }
    case 'DeleteRule':
      if (!s.rules.has(command.ruleId)) throw notFound();
      return [
        {
          type: 'AlertRuleDeleted',
          data: { ruleId: command.ruleId, accountId: command.accountId, deletedAt: command.now },
        },
      ];
  }
}

export const alertRulesDecider: Decider<AlertRulesState, AlertRulesCommand, AlertRulesEvent> = {
  initialState,
  evolve,
  decide,
};
