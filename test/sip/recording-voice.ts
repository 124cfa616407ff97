import dgram from 'node:dgram';
import type { CallAudio, CallAudioFactory, NegotiatedAudio } from '../../src/voice/call-media.port';
import type { VoiceCall, VoiceCalls } from '../../src/voice/voice-calls.port';

/**
 * TEST DOUBLE, until the media side (issue 36's RTP) is merged: a CallAudio that binds a real UDP
 * socket on the address it is given (so the port in Parley's SDP is a live one) and records every
 * `connect` and `close` signalling makes. It sends and receives no audio.
 */
export class RecordingCallAudio implements CallAudio {
  readonly connects: NegotiatedAudio[] = [];
  closed = false;

  constructor(
    private readonly socket: dgram.Socket,
    readonly localAddress: string,
    readonly localPort: number,
  ) {}

  connect(audio: NegotiatedAudio): void {
    this.connects.push(audio);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}

export class RecordingCallAudioFactory implements CallAudioFactory {
  readonly opened: RecordingCallAudio[] = [];

  async open(localAddress: string): Promise<CallAudio> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, localAddress, resolve));
    const audio = new RecordingCallAudio(socket, localAddress, socket.address().port);
    this.opened.push(audio);
    return audio;
  }
}

/** TEST DOUBLE of the voice side: keeps each call it is handed, so a test can hang one up (a BYE from Parley). */
export class RecordingVoiceCalls implements VoiceCalls {
  readonly calls: VoiceCall[] = [];

  async attach(call: VoiceCall): Promise<void> {
    this.calls.push(call);
  }
}
