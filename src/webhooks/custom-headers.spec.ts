import { customHeadersProblem, maskHeaders } from './custom-headers';

describe('custom webhook headers', () => {
  it('accepts an object of header names to strings', () => {
    expect(customHeadersProblem({})).toBeNull();
    expect(customHeadersProblem({ Authorization: 'Bearer abc', 'X-Team': 'support' })).toBeNull();
  });

  it.each([
    [null, 'headers', /object/],
    [['a'], 'headers', /object/],
    ['x', 'headers', /object/],
    [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, 'v'])), 'headers', /at most 20/],
    [{ 'bad name': 'v' }, 'headers.bad name', /header name/],
    [{ 'Content-Type': 'text/plain' }, 'headers.Content-Type', /set by the platform/],
    [{ 'X-Webhook-Signature': 'forged' }, 'headers.X-Webhook-Signature', /set by the platform/],
    [{ host: 'evil' }, 'headers.host', /set by the platform/],
    [{ 'X-A': '1', 'x-a': '2' }, 'headers.x-a', /twice/],
    [{ 'X-A': 1 }, 'headers.X-A', /string/],
    [{ 'X-A': 'a\r\nX-B: b' }, 'headers.X-A', /line breaks/],
    [{ 'X-A': 'a\nb' }, 'headers.X-A', /line breaks/],
    [{ 'X-A': 'a\u000bb' }, 'headers.X-A', /printable ASCII/],
    [{ 'X-A': 'a\u2028b' }, 'headers.X-A', /printable ASCII/],
    [{ 'X-A': 'caf\u00e9' }, 'headers.X-A', /printable ASCII/],
    [{ Connection: 'close' }, 'headers.Connection', /set by the platform/],
    [{ 'Proxy-Authorization': 'x' }, 'headers.Proxy-Authorization', /set by the platform/],
    [{ 'X-Parley-Signature': 'forged' }, 'headers.X-Parley-Signature', /set by the platform/],
    [{ 'X-A': 'a'.repeat(1025) }, 'headers.X-A', /1024/],
  ])('refuses %p, naming %s', (headers, field, message) => {
    const problem = customHeadersProblem(headers);
    expect(problem?.field).toBe(field);
    expect(problem?.message).toMatch(message);
  });

  it('masks every value, keeping the names', () => {
    expect(maskHeaders({ Authorization: 'Bearer abc', 'X-Team': 'support' })).toEqual({
      Authorization: '***',
      'X-Team': '***',
    });
  });
});
