import { bearerToken, parseSessionRequest } from './session-request';

const code = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return (error as { code: string }).code;
  }
  return 'ok';
};

describe('session request', () => {
  it('reads an empty or JSON body', () => {
    expect(parseSessionRequest(undefined)).toEqual({ streamingEnabled: false, platform: '' });
    expect(parseSessionRequest('  ')).toEqual({ streamingEnabled: false, platform: '' });
    expect(parseSessionRequest('{"streaming_enabled":true,"platform":"ios"}')).toEqual({
      streamingEnabled: true,
      platform: 'ios',
    });
  });

  it.each(['{', '[]', '1', '{"streaming_enabled":1}', '{"platform":5}'])('refuses %s as a parse error', (raw) => {
    expect(code(() => parseSessionRequest(raw))).toBe('INVALID_REQUEST_BODY');
  });

  it('refuses a body nested deeper than 64 levels before parsing it, naming the depth', () => {
    const deep = `{"platform":"ios","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    let thrown: { code?: string; fieldErrors?: unknown } = {};
    try {
      parseSessionRequest(deep);
    } catch (error) {
      thrown = error as typeof thrown;
    }
    expect(thrown.code).toBe('INVALID_REQUEST_BODY');
    expect(JSON.stringify(thrown)).toContain('deeper than 64 levels');
  });

  it('Bearer tokens: missing is 400, another form 401', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(code(() => bearerToken(undefined))).toBe('MISSING_ACCESS_TOKEN');
    expect(code(() => bearerToken(''))).toBe('MISSING_ACCESS_TOKEN');
    expect(code(() => bearerToken('Basic abc'))).toBe('MISSING_AUTH_HEADERS');
    expect(code(() => bearerToken('Bearer'))).toBe('MISSING_AUTH_HEADERS');
  });
});
