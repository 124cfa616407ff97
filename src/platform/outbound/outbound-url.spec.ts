import { checkOutboundUrl, outboundUrlProblem } from './outbound-url';

const strict = { allowLoopback: false };
const local = { allowLoopback: true };

/**
 * The internal URLs of issue 30 (28 of 36 were accepted), each in the form an attacker would
 * send it: the WHATWG parser normalises the numeric forms before the rules judge the address.
 */
const INTERNAL = [
  'https://127.0.0.1/hook',
  'https://127.0.0.1:22/',
  'https://127.0.0.1:6379/',
  'https://127.1/',
  'https://2130706433/',
  'https://0177.0.0.1/',
  'https://0x7f.0.0.1/',
  'https://0x7f000001/',
  'https://017700000001/',
  'https://127.0.0.1./',
  'https://localhost/',
  'https://localhost:6379/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:169.254.169.254]/',
  'https://[fd00::1]/',
  'https://[fe80::1]/',
  'https://[::]/',
  'https://169.254.169.254/latest/meta-data/',
  'https://2852039166/',
  'https://[fd00:ec2::254]/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://metadata/',
  'https://10.0.0.1/',
  'https://10.255.255.254:8443/',
  'https://192.168.0.1/',
  'https://192.168.1.1:22/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://0/',
  'https://255.255.255.255/',
  'https://224.0.0.1/',
  'https://redis:6379/',
  'https://db.internal/',
  'https://printer.local/',
];

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
    expect(loopback).toEqual([
      'https://127.0.0.1/hook',
      'https://127.0.0.1:22/',
      'https://127.0.0.1:6379/',
      'https://127.1/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://0x7f.0.0.1/',
      'https://0x7f000001/',
      'https://017700000001/',
      'https://127.0.0.1./',
      'https://localhost/',
      'https://localhost:6379/',
      'https://LOCALHOST./',
      'https://api.localhost/',
      'https://[::1]/',
      'https://[0:0:0:0:0:0:0:1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
    ]);
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost/x', 'http://[::1]:8080/', 'http://2130706433/']) expect(outboundUrlProblem(url, local)).toBeNull();
    for (const url of ['http://10.0.0.1/', 'http://example.com/', 'http://127.0.0.1.example.com/', 'http://[::2]/']) expect(outboundUrlProblem(url, local)).toMatch(/https/);
  });

  it.each(['https://example.com/hooks', 'https://hooks.example.com:8443/a?b=c', 'https://8.8.8.8/', 'https://[2606:4700:4700::1111]/', 'https://134744072/', 'https://xn--bcher-kva.example/', 'https://example.com./x'])(
    'accepts the public %s',
    (url) => {
      expect(outboundUrlProblem(url, strict)).toBeNull();
      expect(outboundUrlProblem(url, local)).toBeNull();
    },
  );

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
