import { ref, routeDocs } from '../openapi/route-docs';
import { arr, bool, int, nullable, num, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { METRICS, OPERATORS, WINDOWS, type AlertState } from './alert-rule.events';
import { AlertRulesController } from './alert-rules.controller';
import { AlertsAdminController } from './alerts-admin.controller';

const STATES: AlertState[] = ['ok', 'alert', 'no_data', 'unknown'];
const rule = obj({
  id: str,
  name: str,
  project_id: nullable(str),
  metric: oneOf(...METRICS),
  operator: oneOf(...OPERATORS),
  threshold_value: num,
  window_duration: oneOf(...WINDOWS),
  enabled: bool,
  current_state: oneOf(...STATES),
  since: nullable(time),
  last_evaluated_at: nullable(time),
  current_value: nullable(num),
  created_at: time,
  updated_at: time,
});
const firing = obj({
  alert_rule_id: str,
  name: str,
  project_id: nullable(str),
  metric: str,
  operator: str,
  threshold_value: num,
  window_duration: str,
  since: nullable(time),
  last_evaluated_at: nullable(time),
  current_value: nullable(num),
});
const filters = [
  { name: 'project_id', schema: str },
  { name: 'metric', schema: oneOf(...METRICS) },
  { name: 'enabled', schema: oneOf('true', 'false') },
];

export const alertRulesDocs = routeDocs(
  AlertRulesController,
  'alerts',
  {
    create: {
      summary: 'Create an alert rule',
      errors: [404, 422],
      example: {
        name: 'slow answers',
        project_id: null,
        metric: 'turn_latency_p95',
        operator: '>',
        threshold_value: 2000,
        window_duration: '5m',
      },
      responses: { 201: { description: 'The rule', schema: ref('AlertRule') } },
    },
    list: {
      summary: 'List alert rules',
      query: [...filters, { name: 'state', schema: oneOf(...STATES) }],
      responses: { 200: { description: 'The rules', schema: obj({ data: arr(ref('AlertRule')) }) } },
    },
    get: {
      summary: 'One alert rule',
      errors: [404, 422],
      responses: { 200: { description: 'The rule', schema: ref('AlertRule') } },
    },
    patch: {
      summary: 'Change an alert rule (only the fields given)',
      errors: [404, 422],
      responses: { 200: { description: 'The rule', schema: ref('AlertRule') } },
    },
    delete: {
      summary: 'Delete an alert rule',
      errors: [404, 422],
      responses: { 204: { description: 'Deleted' } },
    },
    firing: {
      summary: 'The alerts firing now',
      query: filters,
      responses: { 200: { description: 'Rules in the alerting state', schema: obj({ data: arr(firing) }) } },
    },
  },
  { AlertRule: rule },
);

export const alertsAdminDocs = routeDocs(AlertsAdminController, 'operator', {
  evaluate: {
    summary: 'Run an alert evaluation round now',
    responses: {
      200: {
        description: 'What the round evaluated and changed',
        schema: obj({
          evaluated_at: time,
          evaluated: int,
          transitions: arr(obj({ alert_rule_id: str, from: str, to: str, current_value: nullable(num) })),
        }),
      },
    },
  },
});
