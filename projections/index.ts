import type { ProjectionCatalog } from '../src/read-models/apply/apply-thread-protocol';
import type { Projection } from '../src/read-models/projection';
import { accountsProjection } from './accounts/accounts.projection';
import { agentsProjection } from './agents/agents.projection';
import { alertSamplesProjection } from './alert-samples/alert-samples.projection';
import { alertsProjection } from './alerts/alerts.projection';
import { apiKeysProjection } from './api-keys/api-keys.projection';
import { conversationsProjection } from './conversations/conversations.projection';
import { dataAccessProjection } from './data-access/data-access.projection';
import { messagingSessionsProjection } from './messaging-sessions/messaging-sessions.projection';
import { externalEventsProjection } from './external-events/external-events.projection';
import { webhookEndpointsProjection } from './webhook-endpoints/webhook-endpoints.projection';
import { smsSessionsProjection } from './sms-sessions/sms-sessions.projection';
import { concurrencyProjection } from './concurrency/concurrency.projection';
import { agentTestsProjection } from './agent-tests/agent-tests.projection';
import { testRunsProjection } from './test-runs/test-runs.projection';
import { agentToolsProjection } from './agent-tools/agent-tools.projection';
import { agentSettingsProjection } from './agent-settings/agent-settings.projection';
import { analyticsProjection } from './analytics/analytics.projection';

/** Every read model of the app. The server runs them; `npm run projections` drives them. */
export const ALL_PROJECTIONS: Projection[] = [
  accountsProjection,
  apiKeysProjection,
  dataAccessProjection,
  agentsProjection,
  conversationsProjection,
  alertsProjection,
  alertSamplesProjection,
  webhookEndpointsProjection,
  externalEventsProjection,
  messagingSessionsProjection,
  smsSessionsProjection,
  concurrencyProjection,
  agentTestsProjection,
  testRunsProjection,
  agentToolsProjection,
  agentSettingsProjection,
  analyticsProjection,
];

/**
 * Where an apply thread finds ALL_PROJECTIONS (functions do not cross threads, so it loads this
 * module itself): this file, as built or as source under tests.
 */
export const PROJECTION_CATALOG: ProjectionCatalog = {
  module: __filename.replace(/\.[cm]?[jt]s$/, ''),
  exportName: 'ALL_PROJECTIONS',
};
