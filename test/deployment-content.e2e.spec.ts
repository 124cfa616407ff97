import { DeploymentContent } from '../src/agents/deployment-content';
import { parseAgentId } from '../src/platform/ids/prefixed-ids';
import { AgentsClient, createAccount } from './helpers/agents-fixture';
import { startTestApp, type TestApp } from './helpers/test-app';

/** The one function the runtime reads: what a deployment serves, immutable after later merges. */
describe('DeploymentContent', () => {
  let t: TestApp;
  let client: AgentsClient;
  beforeAll(async () => {
    t = await startTestApp();
    client = new AgentsClient(t, await createAccount(t));
  });
  afterAll(async () => t.close());

  async function ship(agentId: string, branchName: string, behavior: string, topic: { name: string; content: string }) {
    const branch = (await client.post(`/v1/agents/${agentId}/branches`, { branchName })).body.branchId;
    await client.patch(`/v1/agents/${agentId}/branches/${branch}/behavior`, { behavior });
    await client.post(`/v1/agents/${agentId}/branches/${branch}/knowledge-base/topics`, {
      ...topic,
      exampleQueries: { queries: [topic.name] },
    });
    await client.post(`/v1/agents/${agentId}/branches/${branch}/merge`, { deploymentMessage: branchName });
    return (await client.get(`/v1/agents/${agentId}/deployments/active`)).body.activeDeployments.sandbox.id as string;
  }

  it('serves main as it was at the deployment, whatever is merged later', async () => {
    const agent = (
      await client.post(`/v1/accounts/${client.account.accountId}/agents`, {
        name: 'Shop',
        responseSettings: { greeting: 'Welcome!', languageCode: 'en-US' },
      })
    ).body;
    const agentId = parseAgentId(agent.agentId);
    const first = await ship(agent.agentId, 'one', 'Be brief.', { name: 'Refunds', content: 'Refunds take 5 days.' });
    const second = await ship(agent.agentId, 'two', 'Be kind.', {
      name: 'Delivery',
      content: 'Delivery takes 2 days.',
    });
    const content = t.app.get(DeploymentContent);

    const a = await content.ofDeployment(agentId, first);
    expect(a).toMatchObject({
      agentId,
      environment: 'sandbox',
      version: 1,
      greeting: 'Welcome!',
      languageCode: 'en-US',
      behavior: 'Be brief.',
    });
    expect(a.topics.map((x) => x.name)).toEqual(['Refunds']);

    const b = await content.ofDeployment(agentId, second);
    expect(b).toMatchObject({ version: 2, behavior: 'Be kind.' });
    expect(b.topics.map((x) => x.name).sort()).toEqual(['Delivery', 'Refunds']);

    expect(await content.activeDeploymentId(agentId, 'sandbox')).toBe(second);
    expect(await content.activeDeploymentId(agentId, 'live')).toBeNull();
    await expect(content.ofDeployment(agentId, 'no-such-deployment')).rejects.toMatchObject({
      code: 'DEPLOYMENT_NOT_FOUND',
      status: 404,
    });
  });

  it('GET …/deployments/{id}/content shows what each deployment serves, only to keys that reach the agent', async () => {
    const agent = (
      await client.post(`/v1/accounts/${client.account.accountId}/agents`, {
        name: 'Diffable',
        responseSettings: { greeting: 'Hi' },
      })
    ).body;
    const first = await ship(agent.agentId, 'a', 'Be brief.', { name: 'Refunds', content: 'Refunds take 5 days.' });
    const second = await ship(agent.agentId, 'b', 'Be kind.', { name: 'Delivery', content: 'Two days.' });

    const a = await client.get(`/v1/agents/${agent.agentId}/deployments/${first}/content`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ deploymentId: first, environment: 'sandbox', version: 1, behavior: 'Be brief.' });
    expect(a.body.topics).toEqual([
      expect.objectContaining({
        name: 'Refunds',
        content: 'Refunds take 5 days.',
        exampleQueries: { queries: ['Refunds'] },
        isActive: true,
        actions: '',
      }),
    ]);
    const b = await client.get(`/v1/agents/${agent.agentId}/deployments/${second}/content`);
    expect(b.body.topics.map((x: { name: string }) => x.name).sort()).toEqual(['Delivery', 'Refunds']);

    // a deployment of another agent is not found through this one
    const other = (
      await client.post(`/v1/accounts/${client.account.accountId}/agents`, {
        name: 'Other',
        responseSettings: { greeting: 'Hi' },
      })
    ).body;
    const foreign = await client.get(`/v1/agents/${other.agentId}/deployments/${first}/content`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe('DEPLOYMENT_NOT_FOUND');
    expect((await client.get(`/v1/agents/${agent.agentId}/deployments/${'x'.repeat(90)}/content`)).status).toBe(404);

    // another account's key may not read it
    const stranger = new AgentsClient(t, await createAccount(t, 'Stranger'));
    expect((await stranger.get(`/v1/agents/${agent.agentId}/deployments/${first}/content`)).status).toBe(403);
  });
});
