import { checkHost, familyOf } from './hosts';

describe('host routing (contract §1)', () => {
  const D = 'example.test';

  it('sorts paths into API families', () => {
    expect(familyOf('/v1/accounts/ws-1/agents')).toBe('build');
    expect(familyOf('/v1/agents/PROJECT-1/debug-chat')).toBe('build');
    expect(familyOf('/v1/alert-rules')).toBe('build');
    expect(familyOf('/v3/ws-1/PROJECT-1/conversations')).toBe('platform');
    expect(familyOf('/v1/external-events/webhook')).toBe('platform');
    expect(familyOf('/v1/outbound-calling')).toBe('platform');
    expect(familyOf('/admin/v1/accounts')).toBe('any');
    expect(familyOf('/healthz')).toBe('any');
    expect(familyOf('/api/v1/sessions')).toBe('any');
    // the sockets: the desk (an account key, the handoffs) is a platform route; the web chat answers anywhere
    expect(familyOf('/desk/ws')).toBe('platform');
    expect(familyOf('/ws')).toBe('any');
  });

  it('serves each family on its own host of this region', () => {
    expect(checkHost('api.us.example.test', '/v1/agents/x', D, 'us')).toEqual({ ok: true });
    expect(checkHost('api.us-1.platform.example.test:8080', '/v3/a/p/conversations', D, 'us')).toEqual({ ok: true });
    expect(checkHost('API.EU.example.test', '/v1/agents/x', D, 'eu')).toEqual({ ok: true });
    expect(checkHost('api.euw-1.platform.example.test', '/v1/outbound-calling', D, 'eu')).toEqual({ ok: true });
    expect(checkHost('api.us-1.platform.example.test', '/v1/outbound-calling', D, 'studio')).toEqual({ ok: true });
  });

  it('answers 404 for the wrong family or region, 400 for a host without a region', () => {
    expect(checkHost('api.us-1.platform.example.test', '/v1/agents/x', D, 'us')).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(checkHost('api.us.example.test', '/v3/a/p/conversations', D, 'us')).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(checkHost('api.uk.example.test', '/v1/agents/x', D, 'us')).toMatchObject({ ok: false, status: 404 });
    expect(checkHost('api.uk-1.platform.example.test', '/v3/a/p/conversations', D, 'us')).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(checkHost('example.test', '/v1/agents/x', D, 'us')).toMatchObject({
      ok: false,
      status: 400,
      code: 'HOST_WITHOUT_REGION',
    });
    expect(checkHost('api.example.test', '/v1/agents/x', D, 'us')).toMatchObject({ ok: false, status: 400 });
    expect(checkHost(undefined, '/v1/agents/x', D, 'us')).toMatchObject({ ok: false, status: 400 });
    expect(checkHost('anything.else', '/admin/v1/accounts', D, 'us')).toEqual({ ok: true });
  });
});
