/**
 * RFC 4733 telephone events (DTMF). A digit arrives as several packets with the same RTP
 * timestamp (its start), growing durations, and an end bit sent three times; a receiver reports
 * each event once, whichever of those packets arrives (lost, reordered or repeated).
 */
const DIGITS = '0123456789*#ABCD';

export interface TelephoneEvent {
  digit: string;
  end: boolean;
  volume: number;
  duration: number;
}

/** One event payload, or null when it is not a DTMF digit (or not 4733 at all). */
export function parseTelephoneEvent(payload: Uint8Array): TelephoneEvent | null {
  if (payload.length < 4) return null;
  const event = payload[0];
  if (event >= DIGITS.length) return null;
  return {
    digit: DIGITS[event],
    end: (payload[1] & 0x80) !== 0,
    volume: payload[1] & 0x3f,
    duration: (payload[2] << 8) | payload[3],
  };
}

export function buildTelephoneEvent(digit: string, end: boolean, duration: number, volume = 10): Uint8Array {
  const event = DIGITS.indexOf(digit.toUpperCase());
  if (event < 0 || digit.length !== 1) throw new Error(`not a DTMF digit: ${digit}`);
  const d = Math.max(0, Math.min(0xffff, duration));
  return Uint8Array.from([event, (end ? 0x80 : 0) | (volume & 0x3f), d >> 8, d & 0xff]);
}

/**
 * Reports each digit once: on its first packet (so a caller pressing a key is heard at once),
 * keyed by the event's RTP timestamp, which every packet of one event shares.
 */
export class DtmfReceiver {
  private readonly seen: number[] = [];

  /** The digit this packet starts, or null when it is a repeat of one already reported. */
  accept(timestamp: number, payload: Uint8Array): string | null {
    const event = parseTelephoneEvent(payload);
    if (!event) return null;
    if (this.seen.includes(timestamp)) return null;
    this.seen.push(timestamp);
    if (this.seen.length > 16) this.seen.shift();
    return event.digit;
  }
}

/**
 * The packets that send one digit: RFC 4733 §2.5's shape, an event update every 20 ms with a
 * growing duration (the first marked), then the end packet three times for redundancy.
 */
export function digitPackets(digit: string, durationMs = 100): { payload: Uint8Array; marker: boolean }[] {
  const samples = (ms: number) => Math.round(ms * 8);
  const out: { payload: Uint8Array; marker: boolean }[] = [];
  for (let ms = 20; ms < durationMs; ms += 20) {
    out.push({ payload: buildTelephoneEvent(digit, false, samples(ms)), marker: ms === 20 });
  }
  for (let i = 0; i < 3; i++)
    out.push({ payload: buildTelephoneEvent(digit, true, samples(durationMs)), marker: false });
  return out;
}
