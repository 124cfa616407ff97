import path from 'node:path';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded setup on port 8080 under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      eventStore: 'sqlite',
      readModelDb: 'sqlite',
      readModelApply: 'thread',
      helperThreadNiceness: 10,
      eventStoreSync: 'full',
      eventStorePollMs: 100,
      testClock: false,
      operatorToken: null,
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('lets Studio call the API cross-origin from studio.<PUBLIC_DOMAIN>, or from the STUDIO_ORIGINS given', () => {
    expect(loadConfig({}).studioOrigins).toEqual([]);
    expect(loadConfig({ PUBLIC_DOMAIN: 'example.com' }).studioOrigins).toEqual([
      'https://studio.example.com',
      'http://studio.example.com',
    ]);
    expect(loadConfig({ STUDIO_ORIGINS: 'https://console.example.org' }).studioOrigins).toEqual([
      'https://console.example.org',
    ]);
    expect(() => loadConfig({ STUDIO_ORIGINS: '*' })).toThrow(/^invalid configuration: STUDIO_ORIGINS /);
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/x',
      EVENT_STORE_SYNC: 'normal',
      EVENT_STORE_POLL_MS: '250',
      PARLEY_TEST_CLOCK: '1',
      OPERATOR_TOKEN: 'a'.repeat(20),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty',
      REGION: 'eu',
      READ_MODEL_APPLY: 'inline',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/tmp/x',
      eventStoreSync: 'normal',
      eventStorePollMs: 250,
      testClock: true,
      operatorToken: 'a'.repeat(20),
      logLevel: 'warn',
      logFormat: 'pretty',
      region: 'eu',
      readModelApply: 'inline',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ EVENT_STORE: 'mongo' }, 'EVENT_STORE'],
    [{ EVENT_STORE_SYNC: 'sometimes' }, 'EVENT_STORE_SYNC'],
    [{ EVENT_STORE_POLL_MS: '5' }, 'EVENT_STORE_POLL_MS'],
    [{ EVENT_STORE_POLL_MS: 'often' }, 'EVENT_STORE_POLL_MS'],
    [{ READ_MODEL_DB: 'mysql' }, 'READ_MODEL_DB'],
    [{ READ_MODEL_APPLY: 'elsewhere' }, 'READ_MODEL_APPLY'],
    [{ HELPER_THREAD_NICENESS: '20' }, 'HELPER_THREAD_NICENESS'],
    [{ HELPER_THREAD_NICENESS: 'low' }, 'HELPER_THREAD_NICENESS'],
    [{ PARLEY_TEST_CLOCK: 'yes' }, 'PARLEY_TEST_CLOCK'],
    [{ OPERATOR_TOKEN: 'short' }, 'OPERATOR_TOKEN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ REGION: 'mars' }, 'REGION'],
    [{ LLM_BASE_URL: 'not a url' }, 'LLM_BASE_URL'],
    [{ EMBEDDINGS_BASE_URL: 'ftp://x' }, 'EMBEDDINGS_BASE_URL'],
    [{ EMBEDDINGS_BASE_URL: 'http://x', EMBEDDINGS_TIMEOUT_MS: '5' }, 'EMBEDDINGS_TIMEOUT_MS'],
    [{ WEBHOOK_ALLOW_HTTP: 'maybe' }, 'WEBHOOK_ALLOW_HTTP'],
    [{ EXTERNAL_EVENTS_MAX_BIND_DELAY_MS: '-1' }, 'EXTERNAL_EVENTS_MAX_BIND_DELAY_MS'],
    [{ EXTERNAL_EVENTS_MAX_BIND_DELAY_MS: 'soon' }, 'EXTERNAL_EVENTS_MAX_BIND_DELAY_MS'],
    [{ OUTBOUND_CARRIER: 'twilio' }, 'OUTBOUND_CARRIER'],
    [{ OUTBOUND_MAX_CONCURRENT_CALLS: '0' }, 'OUTBOUND_MAX_CONCURRENT_CALLS'],
    [{ OUTBOUND_RING_TIMEOUT_S: 'soon' }, 'OUTBOUND_RING_TIMEOUT_S'],
    [{ OUTBOUND_CARRIER: 'sip' }, 'SIP_TRUNK'],
    [{ OUTBOUND_CARRIER: 'sip', SIP_TRUNK: 'trunk.example.com' }, 'SIP_TRUNK'],
    [{ OUTBOUND_CARRIER: 'sip', SIP_TRUNK: 'trunk.example.com:99999' }, 'SIP_TRUNK'],
    [{ OUTBOUND_CARRIER: 'sip', SIP_TRUNK: '127.0.0.1:5060', SIP_HOLD_MS: '-1' }, 'SIP_HOLD_MS'],
    [{ OUTBOUND_CARRIER: 'sip', SIP_TRUNK: '127.0.0.1:5060', SIP_TRUNK_TRANSPORT: 'tls' }, 'SIP_TRUNK_TRANSPORT'],
    [{ OUTBOUND_CARRIER: 'sip', SIP_TRUNK: '127.0.0.1:5060', SIP_TRUNK_USERNAME: 'u' }, 'SIP_TRUNK_PASSWORD'],
    [{ SIP_LISTEN_PORT: '70000' }, 'SIP_LISTEN_PORT'],
    [{ SIP_LISTEN_PORT: '5060', SIP_LISTEN_HOST: '0.0.0.0' }, 'SIP_PUBLIC_HOST'],
    [{ SIP_LISTEN_PORT: '5060', SIP_LISTEN_HOST: 'a b' }, 'SIP_LISTEN_HOST'],
  ])('rejects %p naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid configuration: ${variable} `));
  });

  it('reads the embeddings endpoint, with its defaults', () => {
    expect(loadConfig({}).embeddings).toBeNull();
    expect(loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9999' }).embeddings).toEqual({
      baseUrl: 'http://127.0.0.1:9999',
      apiKey: null,
      model: 'text-embedding-3-small',
      timeoutMs: 5000,
    });
  });

  it('allows plain http webhook endpoints only with WEBHOOK_ALLOW_HTTP', () => {
    expect(loadConfig({}).webhookAllowHttp).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: '0' }).webhookAllowHttp).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: '1' }).webhookAllowHttp).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: 'true' }).webhookAllowHttp).toBe(true);
  });

  it('reads the SMS settings: the embedded carrier by default, a Twilio-compatible HTTP carrier when asked', () => {
    expect(loadConfig({}).sms).toEqual({ rateLimitPerProject: 10, carrier: { kind: 'embedded' } });
    const env = {
      SMS_CARRIER: 'http',
      SMS_CARRIER_URL: 'http://127.0.0.1:9/',
      SMS_CARRIER_ACCOUNT_SID: 'AC1',
      SMS_CARRIER_AUTH_TOKEN: 'tok',
      SMS_RATE_LIMIT_PER_PROJECT: '0',
    };
    expect(loadConfig(env).sms).toEqual({
      rateLimitPerProject: 0,
      carrier: { kind: 'http', baseUrl: 'http://127.0.0.1:9', accountSid: 'AC1', authToken: 'tok', timeoutMs: 10_000 },
    });
    for (const [extra, variable] of [
      [{ SMS_CARRIER: 'pigeon' }, 'SMS_CARRIER'],
      [{ SMS_RATE_LIMIT_PER_PROJECT: 'many' }, 'SMS_RATE_LIMIT_PER_PROJECT'],
      [{ SMS_CARRIER: 'http' }, 'SMS_CARRIER_URL'],
      [{ ...env, SMS_CARRIER_AUTH_TOKEN: '' }, 'SMS_CARRIER_AUTH_TOKEN'],
      [{ ...env, SMS_CARRIER_TIMEOUT_MS: '1' }, 'SMS_CARRIER_TIMEOUT_MS'],
    ] as const) {
      expect(() => loadConfig(extra)).toThrow(new RegExp(`^invalid configuration: ${variable} `));
    }
  });

  it('reads the outbound-call settings: the simulator by default, a SIP trunk when asked', () => {
    expect(loadConfig({}).outboundCalls).toEqual({
      carrier: 'simulator',
      maxConcurrentPerAccount: 10,
      ringTimeoutS: 30,
      sip: null,
    });
    expect(
      loadConfig({
        OUTBOUND_CARRIER: 'sip',
        SIP_TRUNK: 'trunk.example.com:5060',
        OUTBOUND_MAX_CONCURRENT_CALLS: '3',
        OUTBOUND_RING_TIMEOUT_S: '20',
        SIP_HOLD_MS: '0',
      }).outboundCalls,
    ).toEqual({
      carrier: 'sip',
      maxConcurrentPerAccount: 3,
      ringTimeoutS: 20,
      sip: {
        trunkHost: 'trunk.example.com',
        trunkPort: 5060,
        holdMs: 0,
        transport: 'udp',
        username: null,
        password: null,
      },
    });
    expect(loadConfig({ OUTBOUND_CARRIER: 'sip', SIP_TRUNK: '[::1]:5070' }).outboundCalls.sip).toEqual({
      trunkHost: '::1',
      trunkPort: 5070,
      holdMs: 2000,
      transport: 'udp',
      username: null,
      password: null,
    });
    expect(
      loadConfig({
        OUTBOUND_CARRIER: 'sip',
        SIP_TRUNK: '127.0.0.1:5070',
        SIP_TRUNK_TRANSPORT: 'TCP',
        SIP_TRUNK_USERNAME: 'parley',
        SIP_TRUNK_PASSWORD: 's3cret',
      }).outboundCalls.sip,
    ).toMatchObject({ transport: 'tcp', username: 'parley', password: 's3cret' });
  });

  it('the SIP server is off unless SIP_LISTEN_PORT is set; its public host must be reachable', () => {
    expect(loadConfig({}).sipServer).toBeNull();
    expect(loadConfig({ SIP_LISTEN_PORT: '0' }).sipServer).toEqual({
      host: '127.0.0.1',
      port: 0,
      publicHost: '127.0.0.1',
      answerDelayMs: 0,
      maxCalls: 200,
      ratePerSource: 50,
      holdLimitMs: 900_000,
    });
    expect(loadConfig({ SIP_LISTEN_PORT: '0', SIP_HOLD_LIMIT_S: '2' }).sipServer?.holdLimitMs).toBe(2000);
    expect(() => loadConfig({ SIP_LISTEN_PORT: '0', SIP_HOLD_LIMIT_S: '0' })).toThrow(/SIP_HOLD_LIMIT_S/);
    expect(
      loadConfig({ SIP_LISTEN_PORT: '5060', SIP_LISTEN_HOST: '0.0.0.0', SIP_PUBLIC_HOST: 'sip.example.com' }).sipServer,
    ).toMatchObject({ host: '0.0.0.0', port: 5060, publicHost: 'sip.example.com' });
  });

  it('puts the platform database on PostgreSQL with READ_MODEL_DB=postgres and DATABASE_URL, never echoing the URL', () => {
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://ignored/without-postgres' }).databaseUrl).toBeNull();
    const url = 'postgresql://parley:s3cret@db.internal:5432/parley';
    expect(loadConfig({ READ_MODEL_DB: 'postgres', DATABASE_URL: url })).toMatchObject({
      readModelDb: 'postgres',
      databaseUrl: url,
    });
    for (const env of [
      { READ_MODEL_DB: 'postgres' },
      { READ_MODEL_DB: 'postgres', DATABASE_URL: 'not a url s3cret' },
      { READ_MODEL_DB: 'postgres', DATABASE_URL: 'mysql://u:s3cret@h/d' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/^invalid configuration: DATABASE_URL /);
      expect(() => loadConfig(env)).not.toThrow(/s3cret/);
    }
  });

  it('keeps the log in PostgreSQL with EVENT_STORE=postgres: EVENT_STORE_URL, else DATABASE_URL, never echoed', () => {
    expect(loadConfig({}).eventStoreUrl).toBeNull();
    expect(loadConfig({ EVENT_STORE_URL: 'postgres://ignored/without-postgres' }).eventStoreUrl).toBeNull();
    const own = 'postgres://log:s3cret@log.internal:5432/log';
    const shared = 'postgresql://parley:s3cret@db.internal:5432/parley';
    expect(loadConfig({ EVENT_STORE: 'postgres', EVENT_STORE_URL: ` ${own} ` })).toMatchObject({
      eventStore: 'postgres',
      eventStoreUrl: own,
      databaseUrl: null,
    });
    expect(loadConfig({ EVENT_STORE: 'postgres', DATABASE_URL: shared }).eventStoreUrl).toBe(shared);
    expect(
      loadConfig({ EVENT_STORE: 'postgres', EVENT_STORE_URL: own, READ_MODEL_DB: 'postgres', DATABASE_URL: shared }),
    ).toMatchObject({ eventStoreUrl: own, databaseUrl: shared });
    for (const [env, variable] of [
      [{ EVENT_STORE: 'postgres' }, 'EVENT_STORE_URL'],
      [{ EVENT_STORE: 'postgres', EVENT_STORE_URL: '  ' }, 'EVENT_STORE_URL'],
      [{ EVENT_STORE: 'postgres', EVENT_STORE_URL: 'not a url s3cret' }, 'EVENT_STORE_URL'],
      [{ EVENT_STORE: 'postgres', EVENT_STORE_URL: 'mysql://u:s3cret@h/d', DATABASE_URL: shared }, 'EVENT_STORE_URL'],
      [{ EVENT_STORE: 'postgres', DATABASE_URL: 'mysql://u:s3cret@h/d' }, 'DATABASE_URL'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid configuration: ${variable} `));
      expect(() => loadConfig(env)).not.toThrow(/s3cret/);
    }
  });
});
