import fc from 'fast-check';
import { buildRtp, parseRtp, sequenceDelta } from './rtp-packet';

describe('RTP packets', () => {
  it('round-trips every header field', () => {
    const packet = {
      payloadType: 8,
      sequence: 65535,
      timestamp: 0xfffffff0,
      ssrc: 0xdeadbeef,
      marker: true,
      payload: Uint8Array.from([1, 2, 3]),
    };
    const bytes = buildRtp(packet);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x80, 0x88]));
    expect(parseRtp(bytes)).toEqual(packet);
  });

  it('skips CSRCs, a header extension and padding', () => {
    const bytes = Buffer.from([
      0xb1,
      0x00,
      0x00,
      0x01,
      0,
      0,
      0,
      160,
      0,
      0,
      0,
      7, // V=2 P X CC=1, PT 0
      0,
      0,
      0,
      9, // CSRC
      0xbe,
      0xde,
      0x00,
      0x01,
      1,
      2,
      3,
      4, // extension of one word
      0xaa,
      0xbb, // payload
      0,
      0,
      3, // padding of 3
    ]);
    expect(parseRtp(bytes)).toMatchObject({
      payloadType: 0,
      sequence: 1,
      timestamp: 160,
      ssrc: 7,
      payload: Uint8Array.from([0xaa, 0xbb]),
    });
  });

  it.each([
    ['too short', [0x80, 0, 0]],
    ['version 1', [0x40, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]],
    ['RTCP on the port', [0x80, 200, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]],
    ['CSRCs past the end', [0x8f, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]],
    ['extension past the end', [0x90, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]],
    ['padding longer than the packet', [0xa0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 200]],
    ['padding of zero', [0xa0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]],
  ])('refuses %s with null', (_name, bytes) => {
    expect(parseRtp(Uint8Array.from(bytes))).toBeNull();
  });

  it('never throws on garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const parsed = parseRtp(bytes);
        if (parsed) expect(parsed.payload.length).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('measures sequence distance across the wrap', () => {
    expect(sequenceDelta(2, 65534)).toBe(4);
    expect(sequenceDelta(65534, 2)).toBe(-4);
    expect(sequenceDelta(7, 7)).toBe(0);
  });
});
