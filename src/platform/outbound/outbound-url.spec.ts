import { INTERNAL_URLS as INTERNAL, LOOPBACK_COUNT } from '../../../test/fixtures/internal-urls';
import { checkOutboundUrl, outboundUrlProblem } from './outbound-url';

const strict = { allowLoopback: false };
const local = { allowLoopback: true };

describe('outbound URLs', () => {
  it(`refuses all ${INTERNAL.length} internal forms (loopback included) without the loopback allowance`, () => {
    const accepted = INTERNAL.filter((url) => outboundUrlProblem(url, strict) === null);
    expect(accepted).toEqual([]);
    for (const url of INTERNAL) {
      const check = checkOutboundUrl(url, strict);
      expect(check).toMatchObject({ url: null, internal: true });
    }
  });

  it('with the loopback allowance, allows the loopback forms only, over http too', () => {
    const loopback = INTERNAL.filter((url) => outboundUrlProblem(url, local) === null);
    expect(loopback).toEqual(INTERNAL.slice(0, LOOPBACK_COUNT));
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost/x', 'http://[::1]:8080/', 'http://2130706433/'])
      expect(outboundUrlProblem(url, local)).toBeNull();
    for (const url of ['http://10.0.0.1/', 'http://example.com/', 'http://127.0.0.1.example.com/', 'http://[::2]/'])
      expect(outboundUrlProblem(url, local)).toMatch(/https/);
  });

  it.each([
    'https://example.com/hooks',
    'https://hooks.example.com:8443/a?b=c',
    'https://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'https://134744072/',
    'https://xn--bcher-kva.example/',
    'https://example.com./x',
  ])('accepts the public %s', (url) => {
    expect(outboundUrlProblem(url, strict)).toBeNull();
    expect(outboundUrlProblem(url, local)).toBeNull();
  });

  it.each([
    ['https://example.com/a\r\nX-Injected: 1', /whitespace or control/],
    ['https://example.com/\n', /whitespace or control/],
    [' https://example.com/', /whitespace or control/],
    ['https://exa\tmple.com/', /whitespace or control/],
    ['https://example.com/\u0000', /whitespace or control/],
    ['not-a-url', /absolute URL/],
    ['/relative/path', /absolute URL/],
    ['ftp://example.com/x', /https/],
    ['javascript:alert(1)', /https/],
    ['file:///etc/passwd', /https/],
    ['http://example.com/', /https/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
    [`https://example.com/${'a'.repeat(2048)}`, /2048/],
  ])('refuses %j', (url, problem) => {
    expect(outboundUrlProblem(url, strict)).toMatch(problem);
  });
});
