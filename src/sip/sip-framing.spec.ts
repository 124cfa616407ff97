import { SipStreamFramer } from './sip-framing';
import { SourceRate } from './source-rate';

const msg = (body = '') =>
  `OPTIONS sip:x SIP/2.0\r\nCall-ID: a\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('SIP over a stream', () => {
  it('cuts messages at Content-Length, across chunk boundaries, skipping keep-alive CRLFs', () => {
    const framer = new SipStreamFramer();
    const wire = Buffer.from(`\r\n\r\n${msg('v=0\r\n')}${msg()}`);
    const got: string[] = [];
    for (let i = 0; i < wire.length; i += 7) got.push(...framer.push(wire.subarray(i, i + 7)));
    expect(got).toEqual([msg('v=0\r\n'), msg()]);
  });

  it('the compact form l: counts; a multi-byte body is measured in bytes', () => {
    const framer = new SipStreamFramer();
    const body = 'é';
    expect(framer.push(Buffer.from(`BYE sip:x SIP/2.0\r\nl: 2\r\n\r\n${body}`))).toHaveLength(1);
  });

  it('refuses what would buffer without end: no Content-Length, a huge header block, a huge body', () => {
    expect(() => new SipStreamFramer().push(Buffer.from('BYE sip:x SIP/2.0\r\n\r\n'))).toThrow(/Content-Length/);
    expect(() => new SipStreamFramer(1024).push(Buffer.alloc(2000, 'a'))).toThrow(/too large/);
    expect(() => new SipStreamFramer(1024).push(Buffer.from(msg().replace('Length: 0', 'Length: 99999')))).toThrow(
      /too large/,
    );
  });
});

describe('per-source rate', () => {
  it('lets a burst of twice the rate through, then one per 1/rate seconds; sources are separate', () => {
    let now = 0;
    const rate = new SourceRate(5, 100, () => now);
    const burst = Array.from({ length: 12 }, () => rate.allow('10.0.0.1'));
    expect(burst.filter(Boolean)).toHaveLength(10);
    expect(rate.allow('10.0.0.2')).toBe(true);
    now += 200;
    expect(rate.allow('10.0.0.1')).toBe(true);
    expect(rate.allow('10.0.0.1')).toBe(false);
  });

  it('forgets the longest-idle source past its table size (a fresh bucket is full)', () => {
    let now = 0;
    const rate = new SourceRate(1, 2, () => now);
    expect([rate.allow('a'), rate.allow('a'), rate.allow('a')]).toEqual([true, true, false]);
    rate.allow('b');
    rate.allow('c');
    now += 1;
    expect(rate.allow('a')).toBe(true);
  });
});
