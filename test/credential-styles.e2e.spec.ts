import { Controller, Get } from '@nestjs/common';
import { RequireApiKey, RequireServiceToken } from '../src/platform/auth/key.guard';
import { createAccount, AgentsClient } from './helpers/agents-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';

/**
 * The two key credential styles of interface.md ("Authentication"), on probe routes mounted beside
 * the app: `x-api-key` and `X-Service-Auth-Token` (outbound calling and SMS use the latter).
 */
@Controller('test/probe/:agentId')
class ProbeController {
  @Get('api-key')
  @RequireApiKey({ permission: 'agents', agent: 'agentId' })
  apiKey() {
    return { ok: 'api-key' };
  }

  @Get('service-token')
  @RequireServiceToken({ permission: 'outbound_calling', agent: 'agentId' })
  serviceToken() {
    return { ok: 'service-token' };
  }
}

describe('credential styles', () => {
  let t: TestApp;
  let agentId: string;
  let key: string;
  let narrowKey: string;

  beforeAll(async () => {
    t = await startTestApp({}, undefined, [ProbeController]);
    const account = await createAccount(t, 'Acme', ['agents', 'keys', 'outbound_calling']);
    const client = new AgentsClient(t, account);
    agentId = (
      await client.post(`/v1/accounts/${account.accountId}/agents`, { name: 'a', responseSettings: { greeting: 'hi' } })
    ).body.agentId;
    key = account.key;
    const narrow = await request(`${t.url}/v1/accounts/${account.accountId}/api-keys`, {
      body: {
        name: 'agents only',
        agents: 'all',
        permissions: ['agents'],
        expiresAt: new Date(Date.now() + 86400_000 * 30).toISOString(),
      },
      headers: { 'x-api-key': key },
    });
    narrowKey = narrow.body.key;
  });
  afterAll(async () => t.close());

  it('x-api-key authenticates in any case of the header name', async () => {
    for (const header of ['x-api-key', 'X-API-KEY', 'X-Api-Key']) {
      const r = await request(`${t.url}/test/probe/${agentId}/api-key`, { headers: { [header]: key } });
      expect(r).toMatchObject({ status: 200, body: { ok: 'api-key' } });
    }
  });

  it('X-Service-Auth-Token carries the same keys for its routes', async () => {
    const r = await request(`${t.url}/test/probe/${agentId}/service-token`, {
      headers: { 'X-Service-Auth-Token': key },
    });
    expect(r).toMatchObject({ status: 200, body: { ok: 'service-token' } });
  });

  it('each route reads only its own header: the other one is a missing credential (401)', async () => {
    expectEnvelope(
      await request(`${t.url}/test/probe/${agentId}/service-token`, { headers: { 'x-api-key': key } }),
      401,
      'API_KEY_MISSING',
    );
    expectEnvelope(
      await request(`${t.url}/test/probe/${agentId}/api-key`, { headers: { 'X-Service-Auth-Token': key } }),
      401,
      'API_KEY_MISSING',
    );
  });

  it('a service token without the route permission is 403, an unknown one 401', async () => {
    expectEnvelope(
      await request(`${t.url}/test/probe/${agentId}/service-token`, { headers: { 'X-Service-Auth-Token': narrowKey } }),
      403,
      'PERMISSION_DENIED',
    );
    expectEnvelope(
      await request(`${t.url}/test/probe/${agentId}/service-token`, { headers: { 'X-Service-Auth-Token': 'sk_nope' } }),
      401,
      'API_KEY_INVALID',
    );
  });
});
