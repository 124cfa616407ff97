import { ref, routeDocs } from '../openapi/route-docs';
import { any, arr, bool, int, map, nullable, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { AgentTestsController } from './agent-tests.controller';
import { TestRunsController } from './test-runs.controller';

const expectation = obj(
  {},
  {
    topic: str,
    contains: str,
    not_contains: str,
    actions: arr(str),
    handoff: bool,
    out_of_domain: bool,
    end_conversation: bool,
  },
);
const testCase = obj({ id: str, name: str, turns: arr(obj({ user: str }, { expect: expectation })), state: map() });
const testRun = obj({
  id: str,
  deploymentId: str,
  environment: oneOf('sandbox', 'pre-release', 'live'),
  status: oneOf('running', 'passed', 'failed'),
  startedAt: time,
  finishedAt: nullable(time),
  summary: obj({ passed: int, failed: int }),
  results: arr(
    obj({
      testId: str,
      name: str,
      passed: bool,
      turns: arr(obj({ user: str, response: str, citedTopic: nullable(str), actions: arr(any), failures: arr(str) })),
    }),
  ),
});

export const agentTestsDocs = routeDocs(
  AgentTestsController,
  'agent-tests',
  {
    list: {
      summary: "A branch's test cases",
      errors: [404],
      responses: { 200: { description: 'The test cases', schema: arr(ref('TestCase')) } },
    },
    add: {
      summary: 'Add a test case (a name is unique per branch; not on `main`)',
      errors: [404, 409, 422],
      example: { name: 'asks for refunds', turns: [{ user: 'refund please', expect: { topic: 'Refunds' } }] },
      responses: { 201: { description: 'The test case', schema: ref('TestCase') } },
    },
    get: {
      summary: 'One test case',
      errors: [404],
      responses: { 200: { description: 'The test case', schema: ref('TestCase') } },
    },
    edit: {
      summary: 'Change a test case',
      errors: [404, 409, 422],
      responses: { 204: { description: 'Changed' } },
    },
    remove: {
      summary: 'Remove a test case',
      errors: [404, 409, 422],
      responses: { 204: { description: 'Removed' } },
    },
  },
  { TestCase: testCase, TestRun: testRun },
);

export const testRunsDocs = routeDocs(TestRunsController, 'agent-tests', {
  list: {
    summary: "The agent's test runs, newest first (at most 100)",
    errors: [404],
    responses: { 200: { description: 'The runs', schema: obj({ testRuns: arr(ref('TestRun')) }) } },
  },
  get: {
    summary: "One test run, with each case's turns",
    errors: [404],
    responses: { 200: { description: 'The run', schema: ref('TestRun') } },
  },
});
