import { AGENT_NUMBER } from './fuzz-fixtures';

/**
 * A body and query each route accepts, built on the fixture ids: the fuzz changes one thing at a
 * time from here, so its inputs get past the first check and reach the deciders. Field names come
 * from the DTOs too (arbitraries.ts); a route missing here is fuzzed from its DTO's names alone.
 * `queryNames` lists parameters a route parses by hand (no query DTO to read them from).
 */
export interface RouteSeed {
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  queryNames?: string[];
}

const LIST_QUERY = [
  'start_time',
  'end_time',
  'limit',
  'offset',
  'client_env',
  'channel',
  'variant_id',
  'variant_name',
  'include_latency',
  'include_context_state',
  'include_turn_metadata',
  'in_progress',
  'as_of',
  'query_type',
  'query',
  'sample',
  'turn_type',
  'cursor',
];

export function routeSeeds(ids: Record<string, string>): Record<string, RouteSeed> {
  const future = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
  const conversations: RouteSeed = { query: { limit: '5', client_env: 'sandbox' }, queryNames: LIST_QUERY };
  const oneConversation: RouteSeed = {
    query: { include_latency: 'true' },
    queryNames: ['include_latency', 'include_context_state', 'include_turn_metadata', 'client_env'],
  };
  return {
    'POST /admin/v1/clock/advance': { body: { seconds: 1 } },
    'POST /admin/v1/accounts': { body: { name: 'Fuzzed Co', region: 'us' } },
    'POST /admin/v1/accounts/:accountId/api-keys': {
      body: { name: 'fuzzed key', agents: 'all', permissions: ['agents'], expiresAt: future },
    },
    'POST /admin/v1/accounts/:accountId/connectors': {
      body: { agentId: ids.agentId, kind: 'messaging', environment: 'sandbox', hostDomain: 'example.org' },
    },
    'POST /admin/v1/agents/:agentId/phone-numbers': { body: { number: '+15550109999', environment: 'sandbox' } },
    'PUT /admin/v1/agents/:agentId/settings': { body: { chunked_streaming: false } },
    'GET /admin/v1/sms/messages': { query: { number: AGENT_NUMBER }, queryNames: ['number'] },
    'GET /admin/v1/dead-letters': { query: { status: 'all' }, queryNames: ['status', 'name'] },
    'POST /api/v1/sessions': { body: { streaming_enabled: false, platform: 'web' } },
    'POST /v1/accounts/:accountId/api-keys': {
      body: { name: 'fuzzed key', agents: [ids.agentId], permissions: ['conversations'], expiresAt: future },
    },
    'PATCH /v1/accounts/:accountId/api-keys/:keyId': { body: { name: 'renamed victim' } },
    'POST /v1/accounts/:accountId/agents': {
      body: { name: 'Fuzzed bot', responseSettings: { greeting: 'Hi', languageCode: 'en-GB' } },
    },
    'PUT /v1/accounts/:accountId/agents/:agentId/data-access': {
      body: { response_metrics: ['CALL_COMPLETED'], show_transcripts: true },
    },
    'POST /v1/agents/:agentId/branches': { body: { branchName: 'fuzzed-branch' } },
    'PUT /v1/agents/:agentId/branches/:branchId/settings': {
      body: {
        confidence_threshold: 0.5,
        fallback_text: 'Call us.',
        small_talk: true,
        model: { provider: 'embedded' },
        analysis: { fields: [{ name: 'mood', type: 'enum', description: 'How they felt', values: ['calm', 'upset'] }] },
      },
    },
    'POST /admin/v1/llm-endpoints': { body: { name: 'fuzz-llm', base_url: 'http://127.0.0.1:9', api_key: 'sk-fuzz' } },
    'POST /admin/v1/embedding-endpoints': {
      body: { name: 'fuzz-embed', base_url: 'http://127.0.0.1:9', api_key: 'sk-fuzz', model: 'fuzz-embed' },
    },
    'PATCH /v1/agents/:agentId/branches/:branchId/behavior': { body: { behavior: 'Be brief.' } },
    'POST /v1/agents/:agentId/branches/:branchId/knowledge-base/topics': {
      body: {
        name: 'Fuzzed topic',
        content: 'Some content.',
        exampleQueries: { queries: ['a question'] },
        actions: 'set_state key=a value=b',
        isActive: true,
      },
    },
    // the learning loop: given words (a turn's need a user turn, which the world's chat lacks)
    'POST /v1/agents/:agentId/branches/:branchId/knowledge-base/example-queries': {
      body: { query: 'can I get my money back', topicId: ids.topicId },
    },
    'PATCH /v1/agents/:agentId/branches/:branchId/knowledge-base/topics/:topicId': {
      body: {
        name: 'Refunds',
        content: 'Refunds take six days.',
        exampleQueries: { queries: ['refund'] },
        actions: '',
        isActive: true,
      },
    },
    'POST /v1/agents/:agentId/branches/:branchId/tools': {
      body: {
        name: 'fuzzed_tool',
        description: 'A fuzzed tool',
        url: 'https://tools.example.com/fuzz',
        parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
        headers: { Authorization: 'Bearer fuzz' },
        timeout_ms: 1000,
      },
    },
    'PATCH /v1/agents/:agentId/branches/:branchId/tools/:toolId': {
      body: { description: 'changed', timeout_ms: 2000 },
    },
    'POST /v1/agents/:agentId/branches/:branchId/merge': {
      body: { deploymentMessage: 'fuzz merge', conflictResolutions: [{ path: ['behavior'], strategy: 'ours' }] },
    },
    'GET /v1/agents/:agentId/deployments': { query: { environment: 'sandbox' } },
    'POST /v1/agents/:agentId/deployments/:deploymentId/promote': {
      body: { targetEnvironment: 'pre-release', deploymentMessage: 'fuzz promote' },
    },
    'POST /v1/agents/:agentId/deployments/:deploymentId/rollback': { body: { deploymentMessage: 'fuzz rollback' } },
    'POST /v1/agents/:agentId/debug-chat': { body: { clientEnv: 'sandbox' } },
    'POST /v1/agents/:agentId/debug-chat/:conversationId': {
      body: {
        clientEnv: 'sandbox',
        message: 'when do you open',
        asrLangCode: 'en-GB',
        ttsLangCode: 'en-GB',
        metadata: { a: 1 },
      },
    },
    'POST /v1/alert-rules': {
      body: {
        name: 'fuzzed rule',
        project_id: ids.agentId,
        metric: 'call_volume',
        operator: '<',
        threshold_value: 1,
        window_duration: '5m',
        enabled: false,
      },
    },
    'GET /v1/alert-rules': {
      query: { project_id: ids.agentId, metric: 'api_errors', enabled: 'false', state: 'ok' },
      queryNames: ['project_id', 'metric', 'enabled', 'state'],
    },
    'PATCH /v1/alert-rules/:ruleId': {
      body: {
        name: 'renamed rule',
        project_id: ids.agentId,
        metric: 'api_errors',
        operator: '>=',
        threshold_value: 5,
        window_duration: '10m',
        enabled: false,
      },
    },
    'POST /v1/webhook-endpoints': {
      body: {
        name: 'fuzzed endpoint',
        url: 'https://example.com/fuzzed',
        event_types: ['alerts.resolved'],
        headers: { 'X-Fuzz': '1' },
        timeout_ms: 5000,
        enabled: false,
      },
    },
    'PATCH /v1/webhook-endpoints/:endpointId': {
      body: {
        name: 'renamed endpoint',
        url: 'https://example.com/renamed',
        event_types: ['alerts.triggered'],
        headers: { 'X-Fuzz': '2' },
        timeout_ms: 2000,
        enabled: false,
      },
    },
    'GET /v1/webhook-endpoints/:endpointId/deliveries': { query: { limit: '10' }, queryNames: ['limit'] },
    'POST /v1/outbound-calling': {
      body: {
        to_number: '+447700900124',
        country_code: 'GB',
        from_number: AGENT_NUMBER,
        metadata: { order: 'A-1' },
        encryption: 'TLS/SRTP',
      },
    },
    'POST /v1/outbound-sms': {
      body: { user_number: '+447700900125', message: 'Hello from the fuzz', agent_number: AGENT_NUMBER },
    },
    'POST /v1/external-events/webhook': {
      body: { event_id: 'fuzz-event-1', status: 'done' },
      query: {
        event_id_location: 'body',
        event_id_path: 'event_id',
        account_id: ids.accountId,
        project_id: ids.agentId,
      },
      queryNames: ['event_id_location', 'event_id_path', 'account_id', 'project_id'],
    },
    'POST /v1/sms/inbound/:connectorId': {
      body: { from: '+447700900126', to: AGENT_NUMBER, text: 'when do you open', provider_message_id: 'SMfuzz1' },
    },
    'GET /v1/:accountId/:projectId/conversations': conversations,
    'GET /v2/:accountId/:projectId/conversations': conversations,
    'GET /v3/:accountId/:projectId/conversations': conversations,
    'GET /v1/:accountId/:projectId/conversations/:conversationId': oneConversation,
    'GET /v2/:accountId/:projectId/conversations/:conversationId': oneConversation,
    'GET /v3/:accountId/:projectId/conversations/:conversationId': oneConversation,
    'GET /v1/:accountId/:projectId/handoff_state': {
      query: { id: ids.conversationId },
      queryNames: ['id', 'shared_id'],
    },
  };
}
