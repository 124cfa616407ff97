import { Http, type Credentials, type Hosts, type Query } from './http';
import type { components } from './schema';
import type {
  AnalyticsQuery,
  AuditEvent,
  ChatTarget,
  ConflictResolution,
  Conversation,
  ConversationPage,
  DebugTurn,
  Environment,
  TopicInput,
} from './types';

type Schemas = components['schemas'];

/**
 * Studio's API client: one method per route it uses, each naming the route's path template of
 * /openapi.json. `http.call` checks the template, the body and the answer against the generated
 * types (schema.d.ts), so a route whose document changes breaks the build here, not in a page.
 * Only the public API: Studio has no route of its own beyond its files and config.
 */
export class ParleyApi {
  readonly http: Http;

  constructor(credentials: Credentials, hosts?: Hosts) {
    this.http = new Http(credentials, hosts);
  }

  // keys and accounts
  self = () => this.http.call('get', '/v1/api-keys/self');
  accounts = () => this.http.call('get', '/admin/v1/accounts');
  createAccount = (name: string, region: Schemas['CreateAccountDto']['region']) =>
    this.http.call('post', '/admin/v1/accounts', { body: { name, region } });
  issueKey = (accountId: string, body: Schemas['CreateApiKeyDto']) =>
    this.http.call('post', '/admin/v1/accounts/{accountId}/api-keys', { path: { accountId }, body });
  keys = (accountId: string) => this.http.call('get', '/v1/accounts/{accountId}/api-keys', { path: { accountId } });
  createKey = (accountId: string, body: Schemas['CreateApiKeyDto']) =>
    this.http.call('post', '/v1/accounts/{accountId}/api-keys', { path: { accountId }, body });
  renameKey = (accountId: string, keyId: string, name: string) =>
    this.http.call('patch', '/v1/accounts/{accountId}/api-keys/{keyId}', {
      path: { accountId, keyId },
      body: { name },
    });
  deleteKey = (accountId: string, keyId: string) =>
    this.http.call('delete', '/v1/accounts/{accountId}/api-keys/{keyId}', { path: { accountId, keyId } });
  dataAccess = (accountId: string, agentId: string) =>
    this.http.call('get', '/v1/accounts/{accountId}/agents/{agentId}/data-access', { path: { accountId, agentId } });
  setDataAccess = (accountId: string, agentId: string, body: Schemas['DataAccessDto']) =>
    this.http.call('put', '/v1/accounts/{accountId}/agents/{agentId}/data-access', {
      path: { accountId, agentId },
      body,
    });

  // alerts and webhook endpoints
  alertRules = () => this.http.call('get', '/v1/alert-rules');
  createAlertRule = (body: Schemas['CreateAlertRuleDto']) => this.http.call('post', '/v1/alert-rules', { body });
  editAlertRule = (ruleId: string, body: Schemas['PatchAlertRuleDto']) =>
    this.http.call('patch', '/v1/alert-rules/{ruleId}', { path: { ruleId }, body });
  deleteAlertRule = (ruleId: string) => this.http.call('delete', '/v1/alert-rules/{ruleId}', { path: { ruleId } });
  firing = () => this.http.call('get', '/v1/alerts');
  webhookEndpoints = () => this.http.call('get', '/v1/webhook-endpoints');
  createWebhookEndpoint = (body: Schemas['CreateWebhookEndpointDto']) =>
    this.http.call('post', '/v1/webhook-endpoints', { body });
  editWebhookEndpoint = (endpointId: string, body: Schemas['PatchWebhookEndpointDto']) =>
    this.http.call('patch', '/v1/webhook-endpoints/{endpointId}', { path: { endpointId }, body });
  deleteWebhookEndpoint = (endpointId: string) =>
    this.http.call('delete', '/v1/webhook-endpoints/{endpointId}', { path: { endpointId } });
  rotateWebhookSecret = (endpointId: string) =>
    this.http.call('post', '/v1/webhook-endpoints/{endpointId}/rotate-secret', { path: { endpointId } });
  webhookDeliveries = (endpointId: string) =>
    this.http.call('get', '/v1/webhook-endpoints/{endpointId}/deliveries', { path: { endpointId } });

  // operator: connectors and phone numbers
  createConnector = (accountId: string, body: Schemas['CreateConnectorDto']) =>
    this.http.call('post', '/admin/v1/accounts/{accountId}/connectors', { path: { accountId }, body });
  provisionNumber = (agentId: string, body: Schemas['ProvisionPhoneNumberDto']) =>
    this.http.call('post', '/admin/v1/agents/{agentId}/phone-numbers', { path: { agentId }, body });
  connectors = (accountId: string) =>
    this.http.call('get', '/admin/v1/accounts/{accountId}/connectors', { path: { accountId } });
  phoneNumbers = (agentId: string) =>
    this.http.call('get', '/admin/v1/agents/{agentId}/phone-numbers', { path: { agentId } });

  // operator: the read side (what `npm run projections` shows)
  readModels = () => this.http.call('get', '/admin/v1/read-models');
  rebuild = (name: string) => this.http.call('post', '/admin/v1/read-models/{name}/rebuild', { path: { name } });
  deadLetters = (status?: 'open' | 'retry' | 'resolved' | 'all') =>
    this.http.call('get', '/admin/v1/dead-letters', { query: { status } });

  // agents
  agents = (accountId: string) => this.http.call('get', '/v1/accounts/{accountId}/agents', { path: { accountId } });
  createAgent = (accountId: string, name: string, greeting: string) =>
    this.http.call('post', '/v1/accounts/{accountId}/agents', {
      path: { accountId },
      body: { name, responseSettings: { greeting } },
    });
  agent = (agentId: string) => this.http.call('get', '/v1/agents/{agentId}', { path: { agentId } });
  deleteAgent = (agentId: string) => this.http.call('delete', '/v1/agents/{agentId}', { path: { agentId } });

  // branches
  branches = (agentId: string) => this.http.call('get', '/v1/agents/{agentId}/branches', { path: { agentId } });
  createBranch = (agentId: string, branchName: string) =>
    this.http.call('post', '/v1/agents/{agentId}/branches', { path: { agentId }, body: { branchName } });
  deleteBranch = (agentId: string, branchId: string) =>
    this.http.call('delete', '/v1/agents/{agentId}/branches/{branchId}', { path: { agentId, branchId } });
  behavior = (agentId: string, branchId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/branches/{branchId}/behavior', { path: { agentId, branchId } });
  editBehavior = (agentId: string, branchId: string, behavior: string) =>
    this.http.call('patch', '/v1/agents/{agentId}/branches/{branchId}/behavior', {
      path: { agentId, branchId },
      body: { behavior },
    });
  topics = (agentId: string, branchId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics', {
      path: { agentId, branchId },
    });
  addTopic = (agentId: string, branchId: string, topic: TopicInput) =>
    this.http.call('post', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics', {
      path: { agentId, branchId },
      body: topic,
    });
  editTopic = (agentId: string, branchId: string, topicId: string, patch: Partial<TopicInput>) =>
    this.http.call('patch', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics/{topicId}', {
      path: { agentId, branchId, topicId },
      body: patch,
    });
  removeTopic = (agentId: string, branchId: string, topicId: string) =>
    this.http.call('delete', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics/{topicId}', {
      path: { agentId, branchId, topicId },
    });
  /** The learning loop: a turn's words (or given words) as an example query of a topic on a branch. */
  addExampleQuery = (agentId: string, branchId: string, body: Schemas['AddExampleQueryDto']) =>
    this.http.call('post', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/example-queries', {
      path: { agentId, branchId },
      body,
    });
  merge = (
    agentId: string,
    branchId: string,
    body: { deploymentMessage?: string; conflictResolutions?: ConflictResolution[] },
  ) =>
    this.http.call('post', '/v1/agents/{agentId}/branches/{branchId}/merge', {
      path: { agentId, branchId },
      body,
    });

  // tools and test cases on a branch (contract §19, §20); tool headers are write-only
  tools = (agentId: string, branchId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/branches/{branchId}/tools', { path: { agentId, branchId } });
  addTool = (agentId: string, branchId: string, body: Schemas['CreateToolDto']) =>
    this.http.call('post', '/v1/agents/{agentId}/branches/{branchId}/tools', { path: { agentId, branchId }, body });
  editTool = (agentId: string, branchId: string, toolId: string, body: Schemas['PatchToolDto']) =>
    this.http.call('patch', '/v1/agents/{agentId}/branches/{branchId}/tools/{toolId}', {
      path: { agentId, branchId, toolId },
      body,
    });
  removeTool = (agentId: string, branchId: string, toolId: string) =>
    this.http.call('delete', '/v1/agents/{agentId}/branches/{branchId}/tools/{toolId}', {
      path: { agentId, branchId, toolId },
    });
  tests = (agentId: string, branchId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/branches/{branchId}/tests', { path: { agentId, branchId } });
  addTest = (agentId: string, branchId: string, body: Schemas['CreateTestCaseDto']) =>
    this.http.call('post', '/v1/agents/{agentId}/branches/{branchId}/tests', { path: { agentId, branchId }, body });
  editTest = (agentId: string, branchId: string, testId: string, body: Schemas['PatchTestCaseDto']) =>
    this.http.call('patch', '/v1/agents/{agentId}/branches/{branchId}/tests/{testId}', {
      path: { agentId, branchId, testId },
      body,
    });
  removeTest = (agentId: string, branchId: string, testId: string) =>
    this.http.call('delete', '/v1/agents/{agentId}/branches/{branchId}/tests/{testId}', {
      path: { agentId, branchId, testId },
    });
  testRuns = (agentId: string, deploymentId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/test-runs', { path: { agentId }, query: { deploymentId } });

  // deployments
  deployments = (agentId: string, environment?: Environment) =>
    this.http.call('get', '/v1/agents/{agentId}/deployments', { path: { agentId }, query: { environment } });
  activeDeployments = (agentId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/deployments/active', { path: { agentId } });
  deploymentContent = (agentId: string, deploymentId: string) =>
    this.http.call('get', '/v1/agents/{agentId}/deployments/{deploymentId}/content', {
      path: { agentId, deploymentId },
    });
  promote = (agentId: string, deploymentId: string, targetEnvironment?: Environment) =>
    this.http.call('post', '/v1/agents/{agentId}/deployments/{deploymentId}/promote', {
      path: { agentId, deploymentId },
      body: targetEnvironment ? { targetEnvironment } : {},
    });
  rollback = (agentId: string, deploymentId: string) =>
    this.http.call('post', '/v1/agents/{agentId}/deployments/{deploymentId}/rollback', {
      path: { agentId, deploymentId },
      body: {},
    });

  // debug chat: the document types `metadata` loosely; Studio reads the fields contract §7 names
  /** Debug chat on an environment's deployment, or on a branch's draft as it is now (`{branchId}`, contract §26). */
  startChat = (agentId: string, target: ChatTarget) =>
    this.http.request<DebugTurn>('POST', '/v1/agents/{agentId}/debug-chat', { path: { agentId }, body: target });
  chatTurn = (agentId: string, conversationId: string, target: ChatTarget, message: string) =>
    this.http.request<DebugTurn>('POST', '/v1/agents/{agentId}/debug-chat/{conversationId}', {
      path: { agentId, conversationId },
      body: { ...target, message },
    });

  // conversations (v3): the agent is the path's projectId
  conversations = (accountId: string, agentId: string, query: Query) =>
    this.http.request<ConversationPage>('GET', '/v3/{accountId}/{projectId}/conversations', {
      path: { accountId, projectId: agentId },
      query,
    });
  conversation = (accountId: string, agentId: string, conversationId: string, asOf?: string | number) =>
    this.http.request<Conversation>('GET', '/v3/{accountId}/{projectId}/conversations/{conversationId}', {
      path: { accountId, projectId: agentId, conversationId },
      query: {
        include_latency: true,
        include_turn_metadata: true,
        include_context_state: true,
        as_of: asOf === undefined ? undefined : String(asOf),
      },
    });
  /** Analytics (contract §23): the agent is the path's projectId. */
  analytics = (accountId: string, agentId: string, query: AnalyticsQuery) =>
    this.http.call('get', '/v1/{accountId}/{projectId}/analytics', {
      path: { accountId, projectId: agentId },
      query: { ...query },
    });
  conversationEvents = (accountId: string, agentId: string, conversationId: string) =>
    this.http.request<{ events: AuditEvent[] }>(
      'GET',
      '/v3/{accountId}/{projectId}/conversations/{conversationId}/events',
      { path: { accountId, projectId: agentId, conversationId } },
    );
}
