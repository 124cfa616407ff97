import { Controller, Get, Param } from '@nestjs/common';
import { AgentsClient, createAccount } from './helpers/agents-fixture';
import { advanceClock } from './helpers/keys-fixtures';
import { request, startTestApp, type TestApp } from './helpers/test-app';

/** A route of a project that fails: test scaffolding, so the platform's real 5xx path runs. */
@Controller('test/projects/:agentId')
class FailingController {
  @Get('boom')
  boom(@Param('agentId') _agentId: string): never {
    throw new Error('the disk caught fire');
  }
}

/** contract §12: `api_errors` counts the platform's own 5xx answers for a project. */
describe('API errors of the platform feed api_errors alerts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' }, undefined, [FailingController]);
  });

  afterAll(async () => t?.close());

  it('each 5xx answer for a project is one api error of that project', async () => {
    const account = await createAccount(t, 'Failing Co', ['agents', 'alerts']);
    const agentId = (await new AgentsClient(t, account).createAgent('Fragile')).agentId;
    const other = (await new AgentsClient(t, account).createAgent('Sturdy')).agentId;
    const key = { 'x-api-key': account.key };
    const watch = async (projectId: string) =>
      (
        await request(`${t.url}/v1/alert-rules`, {
          body: {
            name: 'errors',
            project_id: projectId,
            metric: 'api_errors',
            operator: '>=',
            threshold_value: 3,
            window_duration: '5m',
          },
          headers: key,
        })
      ).body.id as string;
    const fragile = await watch(agentId);
    const sturdy = await watch(other);
    for (let i = 0; i < 3; i++) {
      const r = await request(`${t.url}/test/projects/${agentId}/boom`);
      expect(r.status).toBe(500);
      expect(r.body.error_code).toBe('INTERNAL_ERROR');
    }
    // a 4xx is not an API error of the platform
    await request(`${t.url}/v1/agents/${agentId}/branches/BRANCH-nosuchbranch/behavior`, { headers: key });
    await advanceClock(t, 1);
    // the samples projection is eventually consistent: evaluate until it has seen the errors
    let rule: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 50 && rule.current_state !== 'alert'; attempt++) {
      await request(`${t.url}/admin/v1/alerts/evaluate`, {
        method: 'POST',
        body: {},
        headers: { 'x-operator-token': t.operatorToken },
      });
      rule = (await request(`${t.url}/v1/alert-rules/${fragile}`, { headers: key })).body;
      if (rule.current_state !== 'alert') await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(rule).toMatchObject({ current_state: 'alert', current_value: 3 });
    // the other project had activity of no kind: no data, not errors
    expect((await request(`${t.url}/v1/alert-rules/${sturdy}`, { headers: key })).body.current_state).toBe('no_data');
  });
});
