import type { AlertRuleStateEvent, AlertRulesEvent } from '../../src/alerts/alert-rule.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { AlertRuleRow } from './alerts.entities';
import { ALERTS_READ_MODEL } from './name';

const on = handlerFor<AlertRulesEvent | AlertRuleStateEvent>();

/** Rules as edited, and the state each evaluation left them in. New rules start `ok` (contract §12). */
export const alertsProjection = defineProjection({
  name: ALERTS_READ_MODEL,
  version: 1,
  entities: [AlertRuleRow],
  handles: {
    AlertRuleCreated: on<'AlertRuleCreated'>(async ({ data }, _em, rows) => {
      await rows.upsert(AlertRuleRow, {
        id: data.ruleId,
        accountId: data.accountId,
        projectId: data.projectId,
        name: data.name,
        metric: data.metric,
        operator: data.operator,
        thresholdValue: data.thresholdValue,
        windowDuration: data.windowDuration,
        enabled: data.enabled,
        currentState: 'ok',
        since: data.createdAt,
        lastEvaluatedAt: null,
        currentValue: null,
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        deletedAt: null,
      });
    }),
    AlertRuleUpdated: on<'AlertRuleUpdated'>(async ({ data }, _em, rows) => {
      await rows.update(AlertRuleRow, { id: data.ruleId }, { ...data.changes, updatedAt: data.updatedAt });
    }),
    AlertRuleDeleted: on<'AlertRuleDeleted'>(async ({ data }, _em, rows) => {
      await rows.update(AlertRuleRow, { id: data.ruleId }, { deletedAt: data.deletedAt, updatedAt: data.deletedAt });
    }),
    AlertRuleStateChanged: on<'AlertRuleStateChanged'>(async ({ data }, _em, rows) => {
      await rows.update(
        AlertRuleRow,
        { id: data.ruleId },
        {
          currentState: data.to,
          since: data.since,
          currentValue: data.currentValue,
          lastEvaluatedAt: data.evaluatedAt,
        },
      );
    }),
  },
});
