import { isLoopback, webhookUrlProblem } from './webhook-url';

describe('webhook URLs', () => {
  it.each(['https://example.com/hooks', 'https://hooks.example.com:8443/a?b=c', 'https://127.0.0.1/x'])('accepts https: %s', (url) => {
    expect(webhookUrlProblem(url, false)).toBeNull();
    expect(webhookUrlProblem(url, true)).toBeNull();
  });

  it('refuses plain http without the flag, even to loopback', () => {
    expect(webhookUrlProblem('http://127.0.0.1:9000/hook', false)).toBe('url must use https');
    expect(webhookUrlProblem('http://example.com/hook', false)).toBe('url must use https');
  });

  it('with the flag, allows plain http to loopback hosts only', () => {
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost/x', 'http://[::1]:8080/', 'http://127.8.9.10/']) expect(webhookUrlProblem(url, true)).toBeNull();
    for (const url of ['http://example.com/', 'http://10.0.0.1/', 'http://127.0.0.1.example.com/', 'http://[::2]/']) expect(webhookUrlProblem(url, true)).toMatch(/https/);
  });

  it.each([
    ['not a url', /absolute URL/],
    ['/relative/path', /absolute URL/],
    ['ftp://example.com/x', /https/],
    ['javascript:alert(1)', /https/],
    ['https://user:pass@example.com/', /credentials/],
    [`https://example.com/${'a'.repeat(2048)}`, /2048/],
  ])('refuses %s', (url, problem) => {
    expect(webhookUrlProblem(url, true)).toMatch(problem);
  });

  it('knows loopback names', () => {
    expect(isLoopback('localhost')).toBe(true);
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('[::1]')).toBe(true);
    expect(isLoopback('128.0.0.1')).toBe(false);
    expect(isLoopback('127.0.0.256')).toBe(false);
  });
});
