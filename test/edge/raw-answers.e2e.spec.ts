import { rawHttp } from '../helpers/raw-http';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';

const envelope = (code: string) => ({
  success: false,
  error_code: code,
  error_id: expect.any(String),
  error: expect.any(String),
  error_message: expect.any(String),
  data: null,
});

/**
 * Issue 47, finding 4 (contract §21): every answer the server writes is the envelope, including
 * the ones Node gives on its own (CONNECT dropped without a word, a request without Host, an
 * Expect it cannot meet), and the pages send nosniff and refuse to be framed.
 */
describe('answers outside the routes, and the pages’ security headers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('CONNECT is 405 in the envelope', async () => {
    const r = await rawHttp(t.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject(envelope('METHOD_NOT_ALLOWED'));
    expect(r.headers['x-correlation-id']).toBe((r.body as { error_id: string }).error_id);
  });

  it('an HTTP/1.1 request without Host is 400 in the envelope', async () => {
    const r = await rawHttp(t.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(envelope('HOST_REQUIRED'));
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    const r = await rawHttp(t.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(r.status).toBe(200);
  });

  it('an Expect other than 100-continue is 417 in the envelope', async () => {
    const r = await rawHttp(
      t.url,
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: localhost\r\nExpect: 42-foo\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(r.status).toBe(417);
    expect(r.body).toMatchObject(envelope('EXPECTATION_FAILED'));
  });

  it.each(['/docs', '/docs/init.js', '/chat/demo', '/studio'])(
    '%s sends nosniff and may not be framed',
    async (path) => {
      const r = await fetch(`${t.url}${path}`);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      if (path === '/docs/init.js' || r.status === 404) return;
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(r.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  it('the demo chat runs only its own inline script: no unsafe-inline', async () => {
    const r = await fetch(`${t.url}/chat/demo`);
    const policy = r.headers.get('content-security-policy')!;
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
  });

  it('a large body of an unknown media type is 415 in the envelope, and the connection stays usable', async () => {
    const headers = { 'content-type': 'text/plain', 'x-operator-token': t.operatorToken };
    const r = await request(`${t.url}/admin/v1/accounts`, { headers, rawBody: 'x'.repeat(600_000) });
    expectEnvelope(r, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect((await request(`${t.url}/healthz`)).status).toBe(200);
  });
});
