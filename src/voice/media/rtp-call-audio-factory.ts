import dgram from 'node:dgram';
import { Inject, Injectable } from '@nestjs/common';
import type { CallAudioFactory } from '../call-media.port';
import { VOICE_CONFIG, type VoiceConfig } from '../voice-config';
import { RtpSession } from './rtp-session';

/**
 * Opens one RtpSession per call on a free even port of RTP_PORT_MIN..RTP_PORT_MAX (RTP takes the
 * even ports by convention, RFC 3550 §11), starting at a random one so calls do not queue up on
 * the same few ports.
 */
@Injectable()
export class RtpCallAudioFactory implements CallAudioFactory {
  constructor(@Inject(VOICE_CONFIG) private readonly config: VoiceConfig) {}

  async open(localAddress: string): Promise<RtpSession> {
    const { rtpPortMin, rtpPortMax } = this.config;
    const first = rtpPortMin + (rtpPortMin % 2);
    const count = Math.floor((rtpPortMax - first) / 2) + 1;
    const start = Math.floor(Math.random() * count);
    for (let i = 0; i < count; i++) {
      const port = first + ((start + i) % count) * 2;
      const socket = await bind(localAddress, port);
      if (socket) return new RtpSession(socket, localAddress, port);
    }
    throw new Error(`no free RTP port in ${rtpPortMin}-${rtpPortMax} on ${localAddress}`);
  }
}

function bind(address: string, port: number): Promise<dgram.Socket | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket({ type: address.includes(':') ? 'udp6' : 'udp4' });
    socket.once('error', () => {
      socket.close();
      resolve(null);
    });
    socket.bind(port, address, () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}
