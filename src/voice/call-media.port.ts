/**
 * The seam between SIP signalling (src/outbound-calls/sip, inbound SIP) and a call's audio
 * (src/voice/media, src/voice/speech): signalling negotiates SDP and says where to send RTP; the
 * media side owns the UDP socket, the codecs and everything heard and said on the call.
 */

import type { SrtpSuite } from './media/srtp-context';

/** G.711 at 8 kHz: the codecs every SIP trunk speaks. */
export type AudioCodec = 'PCMU' | 'PCMA';

/** What an SDP offer/answer settled for one call's audio stream. */
export interface NegotiatedAudio {
  codec: AudioCodec;
  /** the RTP payload type the far end uses for that codec (0 PCMU, 8 PCMA when static) */
  payloadType: number;
  /** RFC 4733 telephone-event payload type, when both sides offered it */
  dtmfPayloadType: number | null;
  /** where the far end said to send RTP; symmetric RTP may learn a different source later */
  remoteAddress: string;
  remotePort: number;
  /**
   * the far end's direction as its SDP said it (c=0.0.0.0 reads as inactive): sendonly or inactive
   * = it holds the call (send nothing); recvonly = it only listens; sendrecv = talk both ways
   */
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
  /**
   * SRTP (RFC 3711) keyed by SDES (RFC 4568) when the stream is RTP/SAVP; absent or null: plain RTP.
   * `remoteKey` is the far end's (it protects what it sends with it), `localKey` ours; base64 of 30 bytes.
   */
  srtp?: SrtpKeys | null;
}

export interface SrtpKeys {
  suite: SrtpSuite;
  remoteKey: string;
  localKey: string;
}

/** One call's audio endpoint: a bound local RTP port, pointed at the far end once SDP settles. */
export interface CallAudio {
  readonly localAddress: string;
  readonly localPort: number;
  /** start (or, on a re-INVITE, change) sending and receiving as negotiated; inactive/sendonly = hold */
  connect(audio: NegotiatedAudio): void;
  close(): Promise<void>;
}

/** Opens call audio endpoints (one per call). */
export interface CallAudioFactory {
  open(localAddress: string): Promise<CallAudio>;
}

export const CALL_AUDIO_FACTORY = Symbol('CallAudioFactory');
