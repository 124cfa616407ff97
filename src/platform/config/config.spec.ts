import path from 'node:path';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded setup on port 8080 under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, eventStore: 'sqlite', readModelDb: 'sqlite', eventStoreSync: 'full', testClock: false, operatorToken: null });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({ PORT: '9000', DATA_DIR: '/tmp/x', EVENT_STORE_SYNC: 'normal', PARLEY_TEST_CLOCK: '1', OPERATOR_TOKEN: 'a'.repeat(20), LOG_LEVEL: 'warn', REGION: 'eu' });
    expect(config).toMatchObject({ port: 9000, dataDir: '/tmp/x', eventStoreSync: 'normal', testClock: true, operatorToken: 'a'.repeat(20), logLevel: 'warn', region: 'eu' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ EVENT_STORE: 'mongo' }, 'EVENT_STORE'],
    [{ EVENT_STORE_SYNC: 'sometimes' }, 'EVENT_STORE_SYNC'],
    [{ READ_MODEL_DB: 'mysql' }, 'READ_MODEL_DB'],
    [{ PARLEY_TEST_CLOCK: 'yes' }, 'PARLEY_TEST_CLOCK'],
    [{ OPERATOR_TOKEN: 'short' }, 'OPERATOR_TOKEN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REGION: 'mars' }, 'REGION'],
    [{ LLM_BASE_URL: 'not a url' }, 'LLM_BASE_URL'],
    [{ EMBEDDINGS_BASE_URL: 'ftp://x' }, 'EMBEDDINGS_BASE_URL'],
    [{ EMBEDDINGS_BASE_URL: 'http://x', EMBEDDINGS_TIMEOUT_MS: '5' }, 'EMBEDDINGS_TIMEOUT_MS'],
    [{ WEBHOOK_ALLOW_HTTP: 'maybe' }, 'WEBHOOK_ALLOW_HTTP'],
  ])('rejects %p naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid configuration: ${variable} `));
  });

  it('reads the embeddings endpoint, with its defaults', () => {
    expect(loadConfig({}).embeddings).toBeNull();
    expect(loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9999' }).embeddings).toEqual({ baseUrl: 'http://127.0.0.1:9999', apiKey: null, model: 'text-embedding-3-small', timeoutMs: 5000 });
  });

  it('allows plain http webhook endpoints only with WEBHOOK_ALLOW_HTTP', () => {
    expect(loadConfig({}).webhookAllowHttp).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: '0' }).webhookAllowHttp).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: '1' }).webhookAllowHttp).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: 'true' }).webhookAllowHttp).toBe(true);
  });
});
