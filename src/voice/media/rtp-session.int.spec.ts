import dgram from 'node:dgram';
import { patient } from '../../../test/support/patience';
import type { NegotiatedAudio } from '../call-media.port';
import { loadVoiceConfig } from '../voice-config';
import { encodeG711 } from './g711';
import { rms } from './resample';
import { buildRtp } from './rtp-packet';
import { RtpCallAudioFactory } from './rtp-call-audio-factory';
import type { RtpSession } from './rtp-session';
import { SrtpContext } from './srtp-context';

const factory = new RtpCallAudioFactory(loadVoiceConfig({ RTP_PORT_MIN: '30000', RTP_PORT_MAX: '31000' }));

const towards = (peer: RtpSession, extra: Partial<NegotiatedAudio> = {}): NegotiatedAudio => ({
  codec: 'PCMU',
  payloadType: 0,
  dtmfPayloadType: 101,
  remoteAddress: '127.0.0.1',
  remotePort: peer.localPort,
  direction: 'sendrecv',
  ...extra,
});

async function until(condition: () => boolean, ms = patient(3000)): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const tone = (samples: number) =>
  Int16Array.from({ length: samples }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));

describe('RtpSession on 127.0.0.1', () => {
  let a: RtpSession;
  let b: RtpSession;
  beforeEach(async () => {
    a = await factory.open('127.0.0.1');
    b = await factory.open('127.0.0.1');
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  it('binds even ports in the configured range', () => {
    for (const s of [a, b]) {
      expect(s.localPort % 2).toBe(0);
      expect(s.localPort).toBeGreaterThanOrEqual(30000);
      expect(s.localPort).toBeLessThanOrEqual(31000);
    }
    expect(a.localPort).not.toBe(b.localPort);
  });

  it('refuses to open when every port of the range is taken, and a closed session stays quiet', async () => {
    const tiny = new RtpCallAudioFactory(loadVoiceConfig({ RTP_PORT_MIN: '31900', RTP_PORT_MAX: '31901' }));
    const only = await tiny.open('127.0.0.1');
    try {
      await expect(tiny.open('127.0.0.1')).rejects.toThrow(/no free RTP port in 31900-31901/);
    } finally {
      await only.close();
    }
    only.connect(towards(a));
    expect(await only.play(tone(160))).toBe(false);
    await only.close(); // twice is fine
  });

  it.each(['PCMU', 'PCMA'] as const)(
    '%s: what one plays the other hears, with comfort silence around it',
    async (codec) => {
      const payloadType = codec === 'PCMU' ? 0 : 8;
      a.connect(towards(b, { codec, payloadType }));
      b.connect(towards(a, { codec, payloadType }));
      const heard: Int16Array[] = [];
      b.onAudio((frame) => heard.push(frame));
      await until(() => heard.length >= 5); // comfort silence flows before anything is said
      expect(heard.slice(0, 5).every((f) => f.every((s) => Math.abs(s) <= 8))).toBe(true);
      let firstPacketAt = 0;
      const started = Date.now();
      expect(await a.play(tone(8000), () => (firstPacketAt = Date.now()))).toBe(true);
      // a second of audio is paced in 20 ms frames, not sent at once
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);
      expect(firstPacketAt).toBeGreaterThan(0);
      // most of the 50 frames arrive, even on a loaded machine (the far end plays them out later)
      const loud = () => heard.filter((f) => f.some((s) => Math.abs(s) > 4000)).length;
      await until(() => loud() >= 40);
      expect(loud()).toBeLessThanOrEqual(51);
    },
  );

  it('hears a far end that sends 30 ms packets, re-cut into 20 ms frames', async () => {
    const far = dgram.createSocket('udp4');
    await new Promise<void>((r) => far.bind(0, '127.0.0.1', r));
    try {
      a.connect(towards(b, { remotePort: (far.address() as { port: number }).port }));
      const heard: Int16Array[] = [];
      a.onAudio((frame) => heard.push(frame));
      const pcm = tone(8000);
      const payloads: Buffer[] = [];
      for (let at = 0; at < pcm.length; at += 240)
        payloads.push(Buffer.from(encodeG711('PCMU', pcm.subarray(at, at + 240))));
      for (let i = 0; i < payloads.length; i++) {
        far.send(
          buildRtp({ payloadType: 0, sequence: i, timestamp: i * 240, ssrc: 9, marker: i === 0, payload: payloads[i] }),
          a.localPort,
          '127.0.0.1',
        );
        await new Promise((r) => setTimeout(r, 30));
      }
      // frames of the tone throughout (no gap where a packet boundary fell)
      const loud = () => heard.filter((f) => rms(f) > 5000).length;
      await until(() => loud() >= 45);
      expect(loud()).toBeLessThanOrEqual(51);
    } finally {
      far.close();
    }
  });

  it('after its event loop stalls, hears what arrived meanwhile at once instead of falling behind for good', async () => {
    const far = dgram.createSocket('udp4');
    await new Promise<void>((r) => far.bind(0, '127.0.0.1', r));
    try {
      a.connect(towards(b, { remotePort: (far.address() as { port: number }).port }));
      // loud frames heard in one synchronous run of the session's clock
      const bursts: number[] = [];
      let burst = 0;
      a.onAudio((frame) => {
        if (rms(frame) <= 5000) return;
        if (burst === 0) queueMicrotask(() => (bursts.push(burst), (burst = 0)));
        burst++;
      });
      const payload = Buffer.from(encodeG711('PCMU', tone(160)));
      const send = (i: number) =>
        new Promise<void>((r) =>
          far.send(
            buildRtp({ payloadType: 0, sequence: i, timestamp: i * 160, ssrc: 7, marker: i === 0, payload }),
            a.localPort,
            '127.0.0.1',
            () => r(),
          ),
        );
      // 20 frames of tone reach the socket while the event loop is busy for 600 ms: the clock resyncs
      // first, then reads them
      for (let i = 0; i < 20; i++) await send(i);
      const busyUntil = Date.now() + 600;
      while (Date.now() < busyUntil);
      await until(() => bursts.reduce((sum, n) => sum + n, 0) >= 20);
      // before: one frame a tick from there on, the buffer 17 frames (340 ms) deep for the rest of the call
      expect(Math.max(...bursts)).toBeGreaterThanOrEqual(14);
    } finally {
      far.close();
    }
  });

  it('stopPlayback cuts speech short and resolves its play with false', async () => {
    a.connect(towards(b));
    b.connect(towards(a));
    const playing = a.play(tone(8000 * 10));
    await new Promise((r) => setTimeout(r, 200));
    expect(a.speaking).toBe(true);
    a.stopPlayback();
    expect(await playing).toBe(false);
    expect(a.speaking).toBe(false);
  });

  it('carries RFC 4733 digits', async () => {
    a.connect(towards(b));
    b.connect(towards(a));
    const digits: string[] = [];
    b.onDtmf((d) => digits.push(d));
    await a.sendDigits('12#');
    await until(() => digits.length === 3);
    expect(digits.join('')).toBe('12#');
  });

  it('on hold (the far end sendonly or inactive) sends nothing; speech waits', async () => {
    a.connect(towards(b, { direction: 'inactive' }));
    b.connect(towards(a));
    await new Promise((r) => setTimeout(r, 200));
    expect(a.stats.sent).toBe(0);
    let played = false;
    void a.play(tone(800)).then(() => (played = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(played).toBe(false);
    a.connect(towards(b, { direction: 'sendrecv' })); // a re-INVITE takes the call off hold
    await until(() => played);
    expect(a.stats.sent).toBeGreaterThan(0);
  });

  it('symmetric RTP: answers where the far end really sends from, and ignores anyone else', async () => {
    const natted = dgram.createSocket('udp4');
    const stranger = dgram.createSocket('udp4');
    await new Promise<void>((r) => natted.bind(0, '127.0.0.1', r));
    await new Promise<void>((r) => stranger.bind(0, '127.0.0.1', r));
    try {
      const received: Buffer[] = [];
      natted.on('message', (m) => received.push(m));
      // SDP named a port nobody listens on (the far end's private address behind NAT)
      a.connect(towards(b, { remotePort: 9 }));
      const heard: Int16Array[] = [];
      a.onAudio((f) => heard.push(f));
      const packet = (seq: number, level: number) =>
        buildRtp({
          payloadType: 0,
          sequence: seq,
          timestamp: seq * 160,
          ssrc: 5,
          marker: false,
          payload: new Uint8Array(160).fill(level),
        });
      for (let seq = 1; seq <= 5; seq++) natted.send(packet(seq, 0x80), a.localPort, '127.0.0.1');
      await until(() => received.length > 3);
      for (let seq = 6; seq <= 10; seq++) stranger.send(packet(seq, 0x80), a.localPort, '127.0.0.1');
      stranger.send(Buffer.from('garbage, not RTP'), a.localPort, '127.0.0.1');
      await new Promise((r) => setTimeout(r, 200));
      expect(a.stats.received).toBe(5);
      expect(a.stats.ignored).toBe(6);
    } finally {
      natted.close();
      stranger.close();
    }
  });

  it('SRTP: each side protects with its key and reads the other; a forged or plain packet is counted and dropped', async () => {
    const keyA = Buffer.alloc(30, 1).toString('base64');
    const keyB = Buffer.alloc(30, 2).toString('base64');
    const suite = 'AES_CM_128_HMAC_SHA1_80' as const;
    a.connect(towards(b, { srtp: { suite, localKey: keyA, remoteKey: keyB } }));
    b.connect(towards(a, { srtp: { suite, localKey: keyB, remoteKey: keyA } }));
    const heard: Int16Array[] = [];
    b.onAudio((frame) => heard.push(frame));
    const digits: string[] = [];
    a.onDtmf((d) => digits.push(d));
    await b.sendDigits('7');
    expect(await a.play(tone(4000))).toBe(true);
    await until(() => heard.filter((f) => rms(f) > 4000).length >= 15);
    await until(() => digits.length === 1);
    expect(digits).toEqual(['7']);
    expect(a.stats.unauthenticated + b.stats.unauthenticated).toBe(0);

    // from the far end's own address (after the latch): a plain RTP packet, one under a wrong key, one with its tag broken
    const far = dgram.createSocket('udp4');
    await new Promise<void>((r) => far.bind(0, '127.0.0.1', r));
    const c = await factory.open('127.0.0.1');
    try {
      const farPort = (far.address() as { port: number }).port;
      c.connect(towards(b, { remotePort: farPort, srtp: { suite, localKey: keyB, remoteKey: keyA } }));
      const plain = (seq: number) =>
        buildRtp({
          payloadType: 0,
          sequence: seq,
          timestamp: seq * 160,
          ssrc: 77,
          marker: false,
          payload: new Uint8Array(160).fill(0x10),
        });
      const good = new SrtpContext(suite, keyA);
      const forged = new SrtpContext(suite, Buffer.alloc(30, 9));
      far.send(good.protect(plain(1))!, c.localPort, '127.0.0.1');
      await until(() => c.stats.received === 1);
      far.send(plain(2), c.localPort, '127.0.0.1');
      far.send(forged.protect(plain(3))!, c.localPort, '127.0.0.1');
      const broken = good.protect(plain(4))!;
      broken[broken.length - 1] ^= 0xff;
      far.send(broken, c.localPort, '127.0.0.1');
      // a replay of an authentic packet is dropped too, not counted as a forgery
      far.send(good.protect(plain(1)) ?? Buffer.alloc(0), c.localPort, '127.0.0.1');
      await until(() => c.stats.unauthenticated === 3);
      await new Promise((r) => setTimeout(r, 100));
      expect(c.stats).toMatchObject({ received: 1, unauthenticated: 3 });
    } finally {
      await c.close();
      far.close();
    }
  });
});
