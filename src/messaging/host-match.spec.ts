import { hostMatches } from './host-match';

describe('X-Host against the registered domain', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['shop.example.com', 'example.com', true],
    ['a.b.example.com', 'example.com', true],
    ['EXAMPLE.com.', 'example.com', true],
    ['https://shop.example.com:8443/path?q=1', 'example.com', true],
    ['127.0.0.1:8080', '127.0.0.1', true],
    ['evilexample.com', 'example.com', false],
    ['example.com.evil.org', 'example.com', false],
    ['com', 'example.com', false],
    ['', 'example.com', false],
    ['exa mple.com', 'example.com', false],
    ['shop..example.com', 'example.com', false],
  ])('%s against %s: %s', (host, domain, expected) => {
    expect(hostMatches(host, domain)).toBe(expected);
  });
});
