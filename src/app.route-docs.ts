import { accountAgentsDocs, agentDocs, branchesDocs, deploymentsDocs } from './agents/agents.openapi';
import { adminDocs, apiKeySelfDocs, apiKeysDocs, dataAccessDocs } from './accounts/accounts.openapi';
import { agentTestsDocs, testRunsDocs } from './agent-tests/agent-tests.openapi';
import { agentToolsDocs, toolSecretDocs } from './agents/tools/agent-tools.openapi';
import { runtimeSettingsDocs } from './agents/runtime-settings.openapi';
import { embeddingEndpointsDocs, llmEndpointsDocs } from './agents/endpoints/endpoints.openapi';
import { exampleQueriesDocs } from './learning/learning.openapi';
import { analyticsDocs } from './analytics/analytics.openapi';
import { personalDataDocs } from './erasure/personal-data.openapi';
import { auditExportDocs } from './audit-export/audit-export.openapi';
import { callLimitsDocs } from './call-limits/call-limits.openapi';
import { concurrencyDocs } from './concurrency/concurrency.openapi';
import { dniDocs } from './dni/dni.openapi';
import { inboundCallsDocs } from './inbound-calls/inbound-calls.openapi';
import { alertRulesDocs, alertsAdminDocs } from './alerts/alerts.openapi';
import { chatApiDocs } from './chat-api/chat-api.openapi';
import { conversationsApiDocs, handoffDocs } from './conversations-api/conversations-api.openapi';
import { debugChatDocs } from './debug-chat/debug-chat.openapi';
import { externalEventsDocs } from './external-events/external-events.openapi';
import { chatDemoDocs, messagingHttpDocs } from './messaging/messaging.openapi';
import { outboundCallsDocs } from './outbound-calls/outbound-calls.openapi';
import { clockDocs, healthDocs, metricsDocs, readModelsAdminDocs } from './openapi/operations.openapi';
import { smsAdminDocs, smsDocs } from './sms/sms.openapi';
import { webhookEndpointsDocs } from './webhooks/webhooks.openapi';
import { openApiDocs } from './openapi/openapi.openapi';
import { recordingDocs } from './voice/recording/recording.openapi';
import type { RouteDocTable } from './openapi/route-docs';

/**
 * Every route table: the answers and summaries of each controller's routes, in the reference's
 * order. A new controller adds its table here; test/openapi/openapi-completeness.e2e.spec.ts names
 * any route left out.
 */
export const ROUTE_DOCS: RouteDocTable[] = [
  adminDocs,
  alertsAdminDocs,
  readModelsAdminDocs,
  smsAdminDocs,
  llmEndpointsDocs,
  embeddingEndpointsDocs,
  apiKeysDocs,
  apiKeySelfDocs,
  dataAccessDocs,
  accountAgentsDocs,
  agentDocs,
  branchesDocs,
  exampleQueriesDocs,
  runtimeSettingsDocs,
  deploymentsDocs,
  debugChatDocs,
  chatApiDocs,
  conversationsApiDocs,
  personalDataDocs,
  analyticsDocs,
  recordingDocs,
  handoffDocs,
  externalEventsDocs,
  outboundCallsDocs,
  smsDocs,
  inboundCallsDocs,
  dniDocs,
  concurrencyDocs,
  callLimitsDocs,
  alertRulesDocs,
  webhookEndpointsDocs,
  agentTestsDocs,
  testRunsDocs,
  agentToolsDocs,
  toolSecretDocs,
  auditExportDocs,
  messagingHttpDocs,
  chatDemoDocs,
  healthDocs,
  metricsDocs,
  clockDocs,
  openApiDocs,
];
