/**
 * RTP packets (RFC 3550 §5.1). Parsing is the door for whatever arrives on a public UDP port: it
 * returns null for anything that is not a well-formed version-2 packet, and never throws.
 */
export interface RtpPacket {
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  marker: boolean;
  payload: Uint8Array;
}

const HEADER = 12;

export function buildRtp(packet: RtpPacket): Buffer {
  const out = Buffer.alloc(HEADER + packet.payload.length);
  out[0] = 0x80; // version 2, no padding, no extension, no CSRC
  out[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  out.writeUInt16BE(packet.sequence & 0xffff, 2);
  out.writeUInt32BE(packet.timestamp >>> 0, 4);
  out.writeUInt32BE(packet.ssrc >>> 0, 8);
  out.set(packet.payload, HEADER);
  return out;
}

export function parseRtp(data: Uint8Array): RtpPacket | null {
  if (data.length < HEADER) return null;
  const b0 = data[0];
  if (b0 >> 6 !== 2) return null;
  const padding = (b0 & 0x20) !== 0;
  const extension = (b0 & 0x10) !== 0;
  const csrcCount = b0 & 0x0f;
  const payloadType = data[1] & 0x7f;
  // 72-76 are RTCP's packet types on a muxed port (RFC 5761 §4): not media
  if (payloadType >= 72 && payloadType <= 76) return null;
  let offset = HEADER + csrcCount * 4;
  if (extension) {
    if (data.length < offset + 4) return null;
    const words = (data[offset + 2] << 8) | data[offset + 3];
    offset += 4 + words * 4;
  }
  let end = data.length;
  if (padding) {
    const pad = data[data.length - 1];
    if (pad === 0) return null;
    end -= pad;
  }
  if (end < offset) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    payloadType,
    marker: (data[1] & 0x80) !== 0,
    sequence: view.getUint16(2),
    timestamp: view.getUint32(4),
    ssrc: view.getUint32(8),
    payload: data.slice(offset, end),
  };
}

/** a − b for 16-bit sequence numbers, in −32768..32767 (RFC 3550's wrap-around). */
export function sequenceDelta(a: number, b: number): number {
  return ((((a - b) & 0xffff) + 0x8000) & 0xffff) - 0x8000;
}
