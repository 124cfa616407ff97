import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerSecret } from '../../platform/auth/server-secret';
import { ManualClock } from '../../platform/clock/clock';
import type { Config } from '../../platform/config/config';
import type { Timers } from '../../process-managers/timers';
import type { SpeakingAudio } from '../media/speaking-audio';
import { loadVoiceConfig } from '../voice-config';
import { CallRecordings, RECORDING_RETENTION } from './call-recordings';
import { RecordingAudio } from './recording-audio';

const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Sealed recordings on a real directory; the durable timer is only recorded (the e2e suite runs the real one). */
describe('CallRecordings', () => {
  let dir: string;
  let recordings: CallRecordings;
  const scheduled: Array<{ id: string; owner: string; dueAt: Date | string; payload?: unknown }> = [];
  const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-recordings-'));
    scheduled.length = 0;
    const timers = { schedule: async (timer: (typeof scheduled)[number]) => void scheduled.push(timer) };
    recordings = new CallRecordings(
      { dataDir: dir } as Config,
      loadVoiceConfig({ VOICE_RECORDING_RETENTION_DAYS: '7' }),
      new ServerSecret('test secret'),
      timers as unknown as Timers,
      clock,
    );
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const pcm = (frames: number) => {
    const bytes = Buffer.alloc(frames * 640);
    for (let i = 0; i < bytes.length / 2; i++) bytes.writeInt16LE(((i * 37) % 2000) - 1000, i * 2);
    return bytes;
  };

  it('seals what was written, serves it back as a stereo WAV, and schedules its deletion', async () => {
    const written = pcm(50);
    const writer = recordings.start('IN-abc');
    for (let at = 0; at < written.length; at += 640) writer.write(written.subarray(at, at + 640));
    // nothing under the final name until it is sealed
    expect(await recordings.open('IN-abc')).toBeNull();
    await writer.finish();

    const onDisk = fs.readFileSync(path.join(dir, 'recordings', 'IN-abc.rec'));
    expect(onDisk.subarray(0, 4).toString('ascii')).toBe('PRC1');
    expect(onDisk.includes(written.subarray(0, 64))).toBe(false);
    expect(fs.statSync(path.join(dir, 'recordings', 'IN-abc.rec')).mode & 0o777).toBe(0o600);

    const opened = (await recordings.open('IN-abc'))!;
    const wav = await readAll(opened.stream);
    expect(wav.length).toBe(opened.bytes);
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(40)).toBe(written.length);
    expect(wav.subarray(44).equals(written)).toBe(true);

    expect(scheduled).toEqual([
      {
        id: `${RECORDING_RETENTION}:IN-abc`,
        owner: RECORDING_RETENTION,
        dueAt: new Date(Date.parse('2030-01-08T00:00:00Z')),
        payload: { conversationId: 'IN-abc' },
      },
    ]);
    await recordings.delete('IN-abc');
    await recordings.delete('IN-abc');
    expect(await recordings.open('IN-abc')).toBeNull();
  });

  it('a file altered at rest fails to open to its end; another server secret cannot read it', async () => {
    const writer = recordings.start('IN-tampered');
    writer.write(pcm(10));
    await writer.finish();
    const stranger = new CallRecordings(
      { dataDir: dir } as Config,
      loadVoiceConfig({}),
      new ServerSecret('another secret'),
      {} as Timers,
      clock,
    );
    expect(await stranger.open('IN-tampered')).toBeNull(); // nothing served that fails authentication
    const file = path.join(dir, 'recordings', 'IN-tampered.rec');
    const bytes = fs.readFileSync(file);
    bytes[40] ^= 0xff;
    fs.writeFileSync(file, bytes);
    expect(await recordings.open('IN-tampered')).toBeNull();
  });

  it('names no file outside its directory', async () => {
    expect(() => recordings.start('../escape')).toThrow();
    for (const id of ['../server-secret', '', 'a/b', 'x'.repeat(200)]) expect(await recordings.open(id)).toBeNull();
  });
});

/** A call audio that hears and plays what the test says, to see what the recorder makes of it. */
class FakeAudio implements SpeakingAudio {
  readonly localAddress = '127.0.0.1';
  readonly localPort = 4000;
  private listener: ((frame: Int16Array) => void) | null = null;
  speaking = false;
  connect(): void {}
  async close(): Promise<void> {}
  onAudio(listener: (frame: Int16Array) => void) {
    this.listener = listener;
    return () => (this.listener = null);
  }
  onDtmf() {
    return () => undefined;
  }
  async play(): Promise<boolean> {
    return true;
  }
  stopPlayback(): void {}
  async sendDigits(): Promise<void> {}
  hear(value: number) {
    this.listener?.(new Int16Array(160).fill(value));
  }
}

describe('RecordingAudio', () => {
  it('records the caller left and the agent right, a frame of each per frame heard; barge-in drops the rest', () => {
    const inner = new FakeAudio();
    const frames: Buffer[] = [];
    const audio = new RecordingAudio(inner, { write: (stereo) => frames.push(stereo) });
    void audio.play(new Int16Array(400).fill(7)); // two and a half frames
    inner.hear(1);
    inner.hear(2);
    void audio.play(new Int16Array(320).fill(9));
    inner.hear(3); // the padded end of the first answer
    inner.hear(4);
    audio.stopPlayback();
    inner.hear(5);
    const sample = (frame: Buffer, at: number) => [frame.readInt16LE(at * 4), frame.readInt16LE(at * 4 + 2)];
    expect(frames).toHaveLength(5);
    expect(frames.every((f) => f.length === 640)).toBe(true);
    expect(sample(frames[0], 0)).toEqual([1, 7]);
    expect(sample(frames[1], 159)).toEqual([2, 7]);
    expect(sample(frames[2], 79)).toEqual([3, 7]);
    expect(sample(frames[2], 80)).toEqual([3, 0]);
    expect(sample(frames[3], 0)).toEqual([4, 9]);
    expect(sample(frames[4], 0)).toEqual([5, 0]);
    audio.detach();
    inner.hear(6);
    expect(frames).toHaveLength(5);
  });
});
