/**
 * Cuts SIP messages out of a TCP byte stream (RFC 3261 §18.3): headers up to the blank line, then
 * exactly Content-Length bytes of body. Bounded: a header block or body larger than the limit is
 * an error (the connection is dropped), so a peer cannot make the server buffer without end.
 */
export const MAX_SIP_MESSAGE_BYTES = 16 * 1024;

export class SipStreamFramer {
  private buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes = MAX_SIP_MESSAGE_BYTES) {}

  /** The whole messages the chunk completes; throws when the stream is not SIP or exceeds the limit. */
  push(chunk: Buffer): string[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const messages: string[] = [];
    for (;;) {
      // RFC 3261 §7.5: CRLFs between messages (and keep-alive pings) are ignored
      let start = 0;
      while (start < this.buffer.length && (this.buffer[start] === 0x0d || this.buffer[start] === 0x0a)) start++;
      if (start > 0) this.buffer = this.buffer.subarray(start);
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.buffer.length > this.maxBytes) throw new Error('SIP header block too large');
        return messages;
      }
      const head = this.buffer.subarray(0, end).toString('utf8');
      const length = /^(?:content-length|l)[ \t]*:[ \t]*(\d+)[ \t]*$/im.exec(head);
      // over a stream, Content-Length is mandatory (§18.3): without it the message cannot be cut out
      if (!length) throw new Error('SIP message without Content-Length on a stream');
      const bodyLength = Number(length[1]);
      const total = end + 4 + bodyLength;
      if (total > this.maxBytes) throw new Error('SIP message too large');
      if (this.buffer.length < total) return messages;
      messages.push(this.buffer.subarray(0, total).toString('utf8'));
      this.buffer = this.buffer.subarray(total);
    }
  }
}
