import { Http, type Credentials, type Hosts, type Query } from './http';
import type {
  Account,
  Agent,
  AuditEvent,
  Branch,
  ConflictResolution,
  Conversation,
  ConversationPage,
  CreatedKey,
  DebugTurn,
  Deployment,
  DeploymentContent,
  Environment,
  KeySelf,
  MergeResult,
  Topic,
  TopicInput,
} from './types';

/**
 * Studio's API client: one method per route it uses, each naming the route's path template.
 * Only the public API: Studio has no route of its own beyond its files and config.
 */
export class ParleyApi {
  readonly http: Http;

  constructor(credentials: Credentials, hosts?: Hosts) {
    this.http = new Http(credentials, hosts);
  }

  // keys and accounts
  self = () => this.http.request<KeySelf>('GET', '/v1/api-keys/self');
  accounts = () => this.http.request<{ accounts: Account[] }>('GET', '/admin/v1/accounts');
  createAccount = (name: string, region: string) =>
    this.http.request<Account>('POST', '/admin/v1/accounts', { body: { name, region } });
  issueKey = (
    accountId: string,
    body: { name: string; agents: 'all' | string[]; permissions: string[]; expiresAt: string },
  ) => this.http.request<CreatedKey>('POST', '/admin/v1/accounts/{accountId}/api-keys', { path: { accountId }, body });

  // agents
  agents = (accountId: string) =>
    this.http.request<Agent[]>('GET', '/v1/accounts/{accountId}/agents', { path: { accountId } });
  createAgent = (accountId: string, name: string, greeting: string) =>
    this.http.request<Agent>('POST', '/v1/accounts/{accountId}/agents', {
      path: { accountId },
      body: { name, responseSettings: { greeting } },
    });
  agent = (agentId: string) => this.http.request<Agent>('GET', '/v1/agents/{agentId}', { path: { agentId } });
  deleteAgent = (agentId: string) => this.http.request<void>('DELETE', '/v1/agents/{agentId}', { path: { agentId } });

  // branches
  branches = (agentId: string) =>
    this.http.request<{ branches: Branch[] }>('GET', '/v1/agents/{agentId}/branches', { path: { agentId } });
  createBranch = (agentId: string, branchName: string) =>
    this.http.request<Branch>('POST', '/v1/agents/{agentId}/branches', { path: { agentId }, body: { branchName } });
  deleteBranch = (agentId: string, branchId: string) =>
    this.http.request<void>('DELETE', '/v1/agents/{agentId}/branches/{branchId}', { path: { agentId, branchId } });
  behavior = (agentId: string, branchId: string) =>
    this.http.request<{ behavior: string }>('GET', '/v1/agents/{agentId}/branches/{branchId}/behavior', {
      path: { agentId, branchId },
    });
  editBehavior = (agentId: string, branchId: string, behavior: string) =>
    this.http.request<unknown>('PATCH', '/v1/agents/{agentId}/branches/{branchId}/behavior', {
      path: { agentId, branchId },
      body: { behavior },
    });
  topics = (agentId: string, branchId: string) =>
    this.http.request<Topic[]>('GET', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics', {
      path: { agentId, branchId },
    });
  addTopic = (agentId: string, branchId: string, topic: TopicInput) =>
    this.http.request<Topic>('POST', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics', {
      path: { agentId, branchId },
      body: topic,
    });
  editTopic = (agentId: string, branchId: string, topicId: string, patch: Partial<TopicInput>) =>
    this.http.request<void>('PATCH', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics/{topicId}', {
      path: { agentId, branchId, topicId },
      body: patch,
    });
  removeTopic = (agentId: string, branchId: string, topicId: string) =>
    this.http.request<void>('DELETE', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics/{topicId}', {
      path: { agentId, branchId, topicId },
    });
  merge = (
    agentId: string,
    branchId: string,
    body: { deploymentMessage?: string; conflictResolutions?: ConflictResolution[] },
  ) =>
    this.http.request<MergeResult>('POST', '/v1/agents/{agentId}/branches/{branchId}/merge', {
      path: { agentId, branchId },
      body,
    });

  // deployments
  deployments = (agentId: string, environment?: Environment) =>
    this.http.request<{ deployments: Deployment[] }>('GET', '/v1/agents/{agentId}/deployments', {
      path: { agentId },
      query: { environment },
    });
  activeDeployments = (agentId: string) =>
    this.http.request<{ activeDeployments: Record<Environment, Deployment | null> }>(
      'GET',
      '/v1/agents/{agentId}/deployments/active',
      { path: { agentId } },
    );
  deploymentContent = (agentId: string, deploymentId: string) =>
    this.http.request<DeploymentContent>('GET', '/v1/agents/{agentId}/deployments/{deploymentId}/content', {
      path: { agentId, deploymentId },
    });
  promote = (agentId: string, deploymentId: string, targetEnvironment?: Environment) =>
    this.http.request<{ deployment: Deployment }>('POST', '/v1/agents/{agentId}/deployments/{deploymentId}/promote', {
      path: { agentId, deploymentId },
      body: targetEnvironment ? { targetEnvironment } : {},
    });
  rollback = (agentId: string, deploymentId: string) =>
    this.http.request<{ deployment: Deployment }>('POST', '/v1/agents/{agentId}/deployments/{deploymentId}/rollback', {
      path: { agentId, deploymentId },
      body: {},
    });

  // debug chat
  startChat = (agentId: string, clientEnv: Environment) =>
    this.http.request<DebugTurn>('POST', '/v1/agents/{agentId}/debug-chat', { path: { agentId }, body: { clientEnv } });
  chatTurn = (agentId: string, conversationId: string, clientEnv: Environment, message: string) =>
    this.http.request<DebugTurn>('POST', '/v1/agents/{agentId}/debug-chat/{conversationId}', {
      path: { agentId, conversationId },
      body: { clientEnv, message },
    });

  // conversations (v3)
  conversations = (accountId: string, agentId: string, query: Query) =>
    this.http.request<ConversationPage>('GET', '/v3/{accountId}/{agentId}/conversations', {
      path: { accountId, agentId },
      query,
    });
  conversation = (accountId: string, agentId: string, conversationId: string, asOf?: string | number) =>
    this.http.request<Conversation>('GET', '/v3/{accountId}/{agentId}/conversations/{conversationId}', {
      path: { accountId, agentId, conversationId },
      query: {
        include_latency: true,
        include_turn_metadata: true,
        include_context_state: true,
        as_of: asOf === undefined ? undefined : String(asOf),
      },
    });
  conversationEvents = (accountId: string, agentId: string, conversationId: string) =>
    this.http.request<{ events: AuditEvent[] }>(
      'GET',
      '/v3/{accountId}/{agentId}/conversations/{conversationId}/events',
      {
        path: { accountId, agentId, conversationId },
      },
    );
}
