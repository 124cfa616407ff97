import fc from 'fast-check';
import { DtmfReceiver, buildTelephoneEvent, digitPackets, parseTelephoneEvent } from './dtmf';

describe('RFC 4733 DTMF', () => {
  it('parses an event: digit, end bit, volume, duration', () => {
    expect(parseTelephoneEvent(Uint8Array.from([11, 0x8a, 0x03, 0x20]))).toEqual({
      digit: '#',
      end: true,
      volume: 10,
      duration: 800,
    });
    expect(parseTelephoneEvent(Uint8Array.from([5, 0x0a, 0, 160]))).toEqual({
      digit: '5',
      end: false,
      volume: 10,
      duration: 160,
    });
  });

  it('ignores events that are not digits and payloads that are too short', () => {
    expect(parseTelephoneEvent(Uint8Array.from([16, 0, 0, 0]))).toBeNull(); // flash
    expect(parseTelephoneEvent(Uint8Array.from([1, 0]))).toBeNull();
  });

  it('never throws on garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), fc.nat(), (bytes, ts) => {
        parseTelephoneEvent(bytes);
        new DtmfReceiver().accept(ts, bytes);
      }),
    );
  });

  it('reports a digit once however its packets arrive (updates, three end packets, reordering)', () => {
    const receiver = new DtmfReceiver();
    const packets = digitPackets('7', 100).map((p) => p.payload);
    const heard = [...packets.reverse(), ...packets].map((p) => receiver.accept(1000, p)).filter(Boolean);
    expect(heard).toEqual(['7']);
    // the same key pressed again is a new event with a new timestamp
    expect(receiver.accept(5000, buildTelephoneEvent('7', true, 800))).toBe('7');
  });

  it('hears a digit whose first packets were lost (only the end packets arrived)', () => {
    const receiver = new DtmfReceiver();
    expect(receiver.accept(42, buildTelephoneEvent('*', true, 800))).toBe('*');
  });

  it('sends updates with the marker on the first, then the end bit three times', () => {
    const packets = digitPackets('1', 100);
    expect(packets[0].marker).toBe(true);
    expect(packets.slice(1).every((p) => !p.marker)).toBe(true);
    const ends = packets.filter((p) => parseTelephoneEvent(p.payload)?.end);
    expect(ends).toHaveLength(3);
    expect(parseTelephoneEvent(ends[0].payload)?.duration).toBe(800);
    expect(() => buildTelephoneEvent('x', true, 1)).toThrow();
  });
});
