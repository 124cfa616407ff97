import { decodeJwt } from 'jose';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { AccessTokens } from '../../src/messaging/access-tokens';
import { SessionCommands } from '../../src/messaging/session-commands';
import { toNewEvents } from '../../src/commands/command-handler';
import { Clock } from '../../src/platform/clock/clock';
import { expectEnvelope, request } from '../helpers/test-app';
import { advanceClock } from '../helpers/keys-fixtures';
import { accessToken, session, startMessagingFixture, token, type MessagingFixture } from './messaging-fixture';

describe('messaging HTTP API: access tokens and sessions', () => {
  let f: MessagingFixture;
  const sessions = (headers: Record<string, string>, init: { body?: unknown; rawBody?: string } = {}) =>
    request(`${f.t.url}/api/v1/sessions`, {
      method: 'POST',
      headers: { ...(init.rawBody !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...init,
    });

  beforeAll(async () => {
    f = await startMessagingFixture({ MESSAGING_RATE_LIMIT_PER_SESSION: '1000' });
  });
  afterAll(async () => f.close());
  afterEach(() => jest.restoreAllMocks());

  describe('POST /api/v1/access-token', () => {
    it('issues a short-lived JWT for the registered domain and its subdomains', async () => {
      for (const host of ['example.com', 'shop.example.com', 'https://EU.Shop.example.com:8443/checkout']) {
        const r = await accessToken(f.t, { 'X-Token': f.connectorToken, 'X-Host': host });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' });
        const claims = decodeJwt(r.body.access_token);
        expect(claims).toMatchObject({ sub: f.connectorId, iss: 'parley', aud: 'parley-messaging' });
        expect(claims.exp! - claims.iat!).toBe(3600);
        // no secret travels in the token
        expect(JSON.stringify(claims)).not.toContain(f.connectorToken);
      }
    });

    it.each([
      ['no X-Token', { 'X-Host': 'example.com' }],
      ['no X-Host', { 'X-Token': 'ct_whatever' }],
      ['neither', {}],
      ['an empty X-Token', { 'X-Token': ' ', 'X-Host': 'example.com' }],
    ])('401 Missing authentication headers: %s', async (_name, headers) => {
      const body = expectEnvelope(
        await accessToken(f.t, headers as Record<string, string>),
        401,
        'MISSING_AUTH_HEADERS',
      );
      expect(body.error_message).toBe('Missing authentication headers');
    });

    it('401 Connector token does not exist: an unknown token', async () => {
      const body = expectEnvelope(
        await accessToken(f.t, { 'X-Token': 'ct_unknowntokenvalue', 'X-Host': 'example.com' }),
        401,
        'CONNECTOR_TOKEN_NOT_FOUND',
      );
      expect(body.error_message).toBe('Connector token does not exist');
    });

    it.each(['evil.com', 'example.com.evil.com', 'notexample.com', 'com', 'exa mple.com'])(
      '401 Failed to validate connector: X-Host %s',
      async (host) => {
        const body = expectEnvelope(
          await accessToken(f.t, { 'X-Token': f.connectorToken, 'X-Host': host }),
          401,
          'CONNECTOR_VALIDATION_FAILED',
        );
        expect(body.error_message).toBe('Failed to validate connector');
      },
    );

    it('401 Connector missing host domain: a messaging connector recorded without one', async () => {
      // The operator API requires a domain now; a connector recorded before that rule has none.
      const { ServerSecret } = await import('../../src/platform/auth/server-secret');
      const secret = f.t.app.get(ServerSecret);
      const store = f.t.app.get<EventStore>(EVENT_STORE);
      const clock = f.t.app.get(Clock);
      const value = 'ct_legacyconnectorwithoutdomain0000';
      const [accountId] = [f.account.accountSlug];
      await store.append(
        `account-${accountId}`,
        toNewEvents(
          [
            {
              type: 'ConnectorCreated',
              data: {
                accountId,
                connectorId: 'con_legacy',
                agentId: f.agentId.replace(/^PROJECT-/, ''),
                kind: 'messaging',
                environment: 'sandbox',
                hostDomain: null,
                tokenDigest: secret.digest(value),
                sealedWebhookSecret: null,
                createdAt: clock.nowIso(),
              },
            },
          ],
          { actor: 'operator', correlationId: 'test' },
          clock,
        ),
      );
      let r = await accessToken(f.t, { 'X-Token': value, 'X-Host': 'example.com' });
      for (let i = 0; i < 50 && r.body?.error_code === 'CONNECTOR_TOKEN_NOT_FOUND'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        r = await accessToken(f.t, { 'X-Token': value, 'X-Host': 'example.com' });
      }
      const body = expectEnvelope(r, 401, 'CONNECTOR_MISSING_HOST_DOMAIN');
      expect(body.error_message).toBe('Connector missing host domain');
    });

    it('500 Failed to create access token: signing fails', async () => {
      jest.spyOn(f.t.app.get(AccessTokens), 'issue').mockRejectedValueOnce(new Error('key store unavailable'));
      const body = expectEnvelope(
        await accessToken(f.t, { 'X-Token': f.connectorToken, 'X-Host': 'example.com' }),
        500,
        'ACCESS_TOKEN_CREATION_FAILED',
      );
      expect(body.error_message).toBe('Failed to create access token');
    });

    it('ignores a body, even one that is not JSON', async () => {
      const r = await request(`${f.t.url}/api/v1/access-token`, {
        method: 'POST',
        headers: { 'X-Token': f.connectorToken, 'X-Host': 'example.com', 'content-type': 'application/json' },
        rawBody: '{nope',
      });
      expect(r.status).toBe(200);
    });
  });

  describe('POST /api/v1/sessions', () => {
    let bearer: string;
    beforeAll(async () => {
      bearer = await token(f);
    });

    it('200 {session_id}, with or without a body; the session stream starts with SESSION_START', async () => {
      const a = await sessions({ authorization: `Bearer ${bearer}` });
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const b = await sessions(
        { authorization: `Bearer ${bearer}` },
        { body: { streaming_enabled: true, platform: 'web' } },
      );
      expect(b.status).toBe(200);
      const events = await f.t.app.get<EventStore>(EVENT_STORE).readStream(`messaging-session-${b.body.session_id}`);
      expect(events.map((e) => e.type)).toEqual(['MessagingSessionStarted']);
      expect(events[0].data).toMatchObject({
        streamingEnabled: true,
        platform: 'web',
        connectorId: f.connectorId,
        environment: 'sandbox',
        capabilities: { streaming: true },
      });
    });

    it('400 Missing access token: no Authorization header', async () => {
      const body = expectEnvelope(await sessions({}, { body: {} }), 400, 'MISSING_ACCESS_TOKEN');
      expect(body.error_message).toBe('Missing access token');
    });

    it.each([`Basic ${'x'.repeat(20)}`, 'Bearer', 'token abc', 'Bearer a b'])(
      '401 Missing authentication headers: Authorization %s',
      async (authorization) => {
        const body = expectEnvelope(await sessions({ authorization }, { body: {} }), 401, 'MISSING_AUTH_HEADERS');
        expect(body.error_message).toBe('Missing authentication headers');
      },
    );

    it('401 Invalid access token: malformed, tampered, foreign or expired', async () => {
      const [h, p, s] = bearer.split('.');
      const tampered = [
        h,
        Buffer.from(JSON.stringify({ ...decodeJwt(bearer), sub: 'con_other' })).toString('base64url'),
        s,
      ].join('.');
      const foreign = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
      for (const value of ['not-a-jwt', tampered, foreign, `${h}.${p}.`]) {
        const body = expectEnvelope(
          await sessions({ authorization: `Bearer ${value}` }, { body: {} }),
          401,
          'INVALID_ACCESS_TOKEN',
        );
        expect(body.error_message).toBe('Invalid access token');
      }
    });

    it('400 Error parsing request: a body that is not JSON, not an object, or a wrong type', async () => {
      for (const rawBody of ['{"streaming_enabled": tru', '[1,2]', '"text"']) {
        const body = expectEnvelope(
          await sessions({ authorization: `Bearer ${bearer}` }, { rawBody }),
          400,
          'INVALID_REQUEST_BODY',
        );
        expect(body.error_message).toBe('Error parsing request');
      }
      const typed = expectEnvelope(
        await sessions({ authorization: `Bearer ${bearer}` }, { body: { streaming_enabled: 'yes' } }),
        400,
        'INVALID_REQUEST_BODY',
      );
      expect(typed.errors).toEqual([{ field: 'streaming_enabled', message: 'streaming_enabled must be a boolean' }]);
    });

    it('checks the token before the body', async () => {
      expectEnvelope(await sessions({}, { rawBody: '{bad' }), 400, 'MISSING_ACCESS_TOKEN');
      expectEnvelope(
        await sessions({ authorization: 'Bearer nope' }, { rawBody: '{bad' }),
        401,
        'INVALID_ACCESS_TOKEN',
      );
    });

    it('500 Failed to create session: the store refuses the append', async () => {
      jest.spyOn(f.t.app.get(SessionCommands), 'execute').mockRejectedValueOnce(new Error('disk I/O error'));
      const body = expectEnvelope(
        await sessions({ authorization: `Bearer ${bearer}` }, { body: {} }),
        500,
        'SESSION_CREATION_FAILED',
      );
      expect(body.error_message).toBe('Failed to create session');
    });

    it('tokens expire on the platform clock (default 3600 s)', async () => {
      const fresh = await token(f);
      await advanceClock(f.t, 3599);
      expect((await sessions({ authorization: `Bearer ${fresh}` }, { body: {} })).status).toBe(200);
      await advanceClock(f.t, 2);
      expectEnvelope(await sessions({ authorization: `Bearer ${fresh}` }, { body: {} }), 401, 'INVALID_ACCESS_TOKEN');
    });
  });
});

describe('messaging HTTP rate limit per access token', () => {
  let f: MessagingFixture;
  beforeAll(async () => {
    f = await startMessagingFixture({ MESSAGING_RATE_LIMIT_PER_SESSION: '1' });
  });
  afterAll(async () => f.close());

  it('429 with Retry-After past the limit', async () => {
    const bearer = await token(f);
    // all at once: the limiter is on the wall clock, and one by one a slow machine refills the bucket
    // (1 a second) between requests; the burst (twice the rate) passes, the rest are refused
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        request(`${f.t.url}/api/v1/sessions`, { body: {}, headers: { authorization: `Bearer ${bearer}` } }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    const limited = answers.find((r) => r.status === 429)!;
    expectEnvelope(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // another token is another budget
    expect(await session(f, await token(f))).toEqual(expect.any(String));
  });
});
