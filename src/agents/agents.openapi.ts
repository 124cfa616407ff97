import { ref, routeDocs } from '../openapi/route-docs';
import { arr, bool, int, map, nullable, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { AccountAgentsController, AgentController } from './agents.controller';
import { BranchesController } from './branches.controller';
import { DeploymentsController } from './deployments.controller';

const agent = obj({ accountId: str, agentId: str, agentName: str, createdAt: time, updatedAt: time, branchCount: int });
const branch = obj({
  branchId: str,
  branchName: str,
  sequenceId: str,
  status: oneOf('open', 'merged'),
  createdAt: time,
});
const topic = obj({
  id: str,
  name: str,
  content: str,
  actions: str,
  exampleQueries: obj({ queries: arr(str) }),
  isActive: bool,
});
const deployment = obj(
  { id: str, agentId: str, environment: oneOf('sandbox', 'pre-release', 'live'), version: int, createdAt: time },
  { accountId: str, artifactVersion: int, createdBy: str, message: nullable(str) },
);

export const accountAgentsDocs = routeDocs(
  AccountAgentsController,
  'agents',
  {
    create: {
      summary: 'Create an agent (with its `main` branch)',
      example: { name: 'Support', responseSettings: { greeting: 'Hi, how can I help?', languageCode: 'en-GB' } },
      responses: { 200: { description: 'The agent', schema: ref('Agent') } },
    },
    list: {
      summary: "The account's agents this key can reach",
      responses: { 200: { description: 'The agents', schema: arr(ref('Agent')) } },
    },
  },
  { Agent: agent, Branch: branch, Topic: topic, Deployment: deployment },
);

export const agentDocs = routeDocs(AgentController, 'agents', {
  get: { summary: 'One agent', errors: [404], responses: { 200: { description: 'The agent', schema: ref('Agent') } } },
  delete: {
    summary: 'Delete an agent (its history stays in the log)',
    errors: [404],
    responses: { 204: { description: 'Deleted' } },
  },
});

export const branchesDocs = routeDocs(BranchesController, 'agents', {
  list: {
    summary: "The agent's branches, `main` included",
    errors: [404],
    responses: { 200: { description: 'The branches', schema: obj({ branches: arr(ref('Branch')) }) } },
  },
  create: {
    summary: 'Cut a branch from main',
    errors: [404, 409],
    example: { branchName: 'hours' },
    responses: { 201: { description: 'The branch', schema: ref('Branch') } },
  },
  delete: {
    summary: 'Delete a branch',
    errors: [404, 422],
    responses: { 204: { description: 'Deleted' } },
  },
  behavior: {
    summary: "A branch's behavior text",
    errors: [404],
    responses: { 200: { description: 'The behavior', schema: obj({ behavior: str }) } },
  },
  editBehavior: {
    summary: "Replace a branch's behavior text",
    errors: [404, 409, 422],
    example: { behavior: 'Be brief and friendly.' },
    responses: { 200: { description: 'The behavior', schema: obj({ success: { const: true }, behavior: str }) } },
  },
  topics: {
    summary: "A branch's knowledge-base topics",
    errors: [404],
    responses: { 200: { description: 'The topics', schema: arr(ref('Topic')) } },
  },
  addTopic: {
    summary: 'Add a topic (a name is unique per branch)',
    errors: [404, 409, 422],
    example: {
      name: 'Opening hours',
      content: 'We are open 9 to 5.',
      exampleQueries: { queries: ['when are you open'] },
      actions: 'log_metric name=asked_hours value=1',
    },
    responses: { 201: { description: 'The topic', schema: ref('Topic') } },
  },
  editTopic: {
    summary: 'Change a topic',
    errors: [404, 409, 422],
    responses: { 204: { description: 'Changed' } },
  },
  removeTopic: {
    summary: 'Remove a topic',
    errors: [404, 409, 422],
    responses: { 204: { description: 'Removed' } },
  },
  merge: {
    summary: 'Merge a branch into main and deploy it to sandbox',
    description:
      'When main changed the same item since the branch was cut: 400 `MERGE_CONFLICT` with ' +
      '`data.conflicts: [{path, ours, theirs, base}]`, unless `conflictResolutions` settles each one.',
    errors: [404, 409, 422],
    example: { deploymentMessage: 'Hours' },
    responses: {
      200: {
        description: 'The new sandbox deployment',
        schema: obj({ sequence: str, message: nullable(str), testRunIds: arr(str) }),
      },
    },
  },
});

export const deploymentsDocs = routeDocs(DeploymentsController, 'deployments', {
  list: {
    summary: "The agent's deployments, newest first",
    errors: [404],
    responses: { 200: { description: 'The deployments', schema: obj({ deployments: arr(ref('Deployment')) }) } },
  },
  active: {
    summary: 'The deployment each environment serves',
    errors: [404],
    responses: {
      200: {
        description: 'By environment; null where none is active',
        schema: obj({ activeDeployments: map(nullable(ref('Deployment'))) }),
      },
    },
  },
  served: {
    summary: 'The behavior and topics a deployment serves (main at its version), to compare two',
    errors: [404],
    responses: {
      200: {
        description: 'Its content',
        schema: obj({
          deploymentId: str,
          environment: oneOf('sandbox', 'pre-release', 'live'),
          version: int,
          behavior: str,
          topics: arr(ref('Topic')),
        }),
      },
    },
  },
  promote: {
    summary: 'Promote a deployment to the next (or a named) environment',
    errors: [404, 409, 422],
    example: { targetEnvironment: 'live' },
    responses: {
      200: { description: 'The new deployment', schema: obj({ deployment: ref('Deployment'), testRunIds: arr(str) }) },
    },
  },
  rollback: {
    summary: 'Make an earlier deployment of its environment active again',
    errors: [404, 409],
    responses: {
      200: {
        description: 'The deployment now active',
        schema: obj({ deployment: ref('Deployment'), testRunIds: arr(str) }),
      },
    },
  },
});
