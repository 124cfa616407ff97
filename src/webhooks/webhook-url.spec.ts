import { webhookUrlProblem } from './webhook-url';

/** The endpoint URL rule is the outbound one (src/platform/outbound/outbound-url.spec.ts has the full table). */
describe('webhook URLs', () => {
  it.each(['https://example.com/hooks', 'https://hooks.example.com:8443/a?b=c'])(
    'accepts https to a public host: %s',
    (url) => {
      expect(webhookUrlProblem(url, false)).toBeNull();
      expect(webhookUrlProblem(url, true)).toBeNull();
    },
  );

  it('refuses loopback without the flag, over https too', () => {
    expect(webhookUrlProblem('http://127.0.0.1:9000/hook', false)).toBe('url must use https');
    expect(webhookUrlProblem('http://example.com/hook', false)).toBe('url must use https');
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toMatch(/loopback/);
  });

  it('with the flag, allows loopback hosts only, never private ranges', () => {
    for (const url of [
      'http://127.0.0.1:9000/hook',
      'http://localhost/x',
      'http://[::1]:8080/',
      'http://127.8.9.10/',
      'https://127.0.0.1/x',
    ])
      expect(webhookUrlProblem(url, true)).toBeNull();
    for (const url of ['http://example.com/', 'http://10.0.0.1/', 'http://127.0.0.1.example.com/', 'http://[::2]/'])
      expect(webhookUrlProblem(url, true)).toMatch(/https/);
    for (const url of ['https://10.0.0.1/', 'https://192.168.1.1/', 'https://169.254.169.254/'])
      expect(webhookUrlProblem(url, true)).toMatch(/internal/);
  });

  it.each([
    ['not-a-url', /absolute URL/],
    ['ftp://example.com/x', /https/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://example.com/x\r\nHost: evil', /whitespace or control/],
    [`https://example.com/${'a'.repeat(2048)}`, /2048/],
  ])('refuses %j', (url, problem) => {
    expect(webhookUrlProblem(url, true)).toMatch(problem);
  });
});
