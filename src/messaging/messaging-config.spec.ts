import { ConfigError, loadConfig } from '../platform/config/config';

describe('messaging configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}).messaging).toEqual({
      tokenTtlS: 3600,
      sessionIdleS: 600,
      maxConnectionsPerSession: 10,
      rateLimitPerSession: 10,
      handoffTimeoutS: 120,
      maxDeskSocketsPerKey: 5,
      maxConcurrentTurns: 500,
    });
  });

  it('reads each variable and refuses bad values, naming the variable', () => {
    expect(
      loadConfig({
        MESSAGING_TOKEN_TTL_S: '60',
        MESSAGING_RATE_LIMIT_PER_SESSION: '0',
        MESSAGING_MAX_DESK_SOCKETS_PER_KEY: '2',
      }).messaging,
    ).toMatchObject({ tokenTtlS: 60, rateLimitPerSession: 0, maxDeskSocketsPerKey: 2 });
    for (const [name, value] of [
      ['MESSAGING_TOKEN_TTL_S', '59'],
      ['MESSAGING_SESSION_IDLE_S', 'ten'],
      ['MESSAGING_MAX_CONNECTIONS_PER_SESSION', '0'],
      ['MESSAGING_HANDOFF_TIMEOUT_S', '-1'],
      ['MESSAGING_MAX_DESK_SOCKETS_PER_KEY', '0'],
    ]) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });
});
