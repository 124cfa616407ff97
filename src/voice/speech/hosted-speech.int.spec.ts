import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { encodeWav } from '../media/wav';
import { loadVoiceConfig } from '../voice-config';
import type { SpeechRecognizer, SpeechSynthesizer } from './speech.port';
import { recognizerFor, synthesizerFor } from './speech-adapters';

/**
 * Local servers standing in for hosted models: an OpenAI-compatible transcription and speech API
 * and a streaming recognition service. They check what the adapters send and answer canned text
 * and audio, or stall, or fail, to exercise the timeouts and the fallback to the embedded engines.
 */
type Mode = 'ok' | 'slow' | 'broken';
let mode: Mode = 'ok';
const seen: { path: string; auth?: string; body: Buffer }[] = [];

const tone = (rate: number, seconds: number) =>
  Int16Array.from({ length: rate * seconds }, (_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 300 * i) / rate)));

const api = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    if (mode === 'slow') return; // never answers: the adapter's deadline must end the wait
    if (mode === 'broken') return res.writeHead(500).end('{"error":"down"}');
    if (req.url === '/v1/audio/transcriptions') {
      const text =
        body.includes(Buffer.from('RIFF')) && body.includes(Buffer.from('whisper-1'))
          ? 'hosted heard a wav'
          : 'bad request';
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
    }
    if (req.url === '/v1/audio/speech') {
      const asked = JSON.parse(body.toString()) as { input: string; response_format: string };
      if (asked.response_format !== 'wav') return res.writeHead(400).end();
      return res.writeHead(200, { 'content-type': 'audio/wav' }).end(encodeWav(tone(24000, 1), 24000));
    }
    res.writeHead(404).end();
  });
});

const streaming = new WebSocketServer({ port: 0, host: '127.0.0.1' });
streaming.on('connection', (socket) => {
  let bytes = 0;
  let start: { sample_rate?: number; phrases?: string[] } = {};
  socket.on('message', (data, binary) => {
    if (binary) {
      bytes += (data as Buffer).length;
      return;
    }
    const message = JSON.parse(data.toString()) as { type: string; sample_rate?: number; phrases?: string[] };
    if (message.type === 'start') start = message;
    if (message.type === 'end' && mode === 'ok') {
      socket.send(JSON.stringify({ type: 'partial', text: 'stream' }));
      socket.send(
        JSON.stringify({
          type: 'final',
          text: `streamed ${bytes} bytes at ${start.sample_rate} with ${start.phrases?.length} phrases`,
        }),
      );
    }
    if (message.type === 'end' && mode === 'broken') socket.send('not json');
  });
});

let base = '';
let wsUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  if (!streaming.address()) await new Promise((r) => streaming.once('listening', r));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  wsUrl = `ws://127.0.0.1:${(streaming.address() as AddressInfo).port}`;
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise((r) => api.close(r));
  await new Promise((r) => streaming.close(r));
});
beforeEach(() => {
  mode = 'ok';
  seen.length = 0;
});

const config = (env: Record<string, string>) =>
  loadVoiceConfig({ VOICE_ASR_TIMEOUT_MS: '1500', VOICE_TTS_TIMEOUT_MS: '1500', ...env });
const fallbacks: string[] = [];
const notice = (stage: string, primary: string) => fallbacks.push(`${stage}:${primary}`);

describe('hosted speech adapters (against local stand-ins) and their fallback', () => {
  let openaiAsr: SpeechRecognizer;
  let openaiTts: SpeechSynthesizer;
  beforeAll(() => {
    openaiAsr = recognizerFor(
      config({ VOICE_ASR: 'openai', VOICE_ASR_URL: base, VOICE_ASR_API_KEY: 'sk-test' }),
      notice,
    );
    openaiTts = synthesizerFor(config({ VOICE_TTS: 'openai', VOICE_TTS_URL: base }), notice);
  });

  it('transcribes through /audio/transcriptions with the key, the model and the phrases as a prompt', async () => {
    expect(await openaiAsr.recognize(tone(8000, 1), { phrases: ['opening hours'] })).toBe('hosted heard a wav');
    expect(seen[0].auth).toBe('Bearer sk-test');
    expect(seen[0].body.includes(Buffer.from('opening hours'))).toBe(true);
  });

  it('speaks through /audio/speech, the 24 kHz WAV taken to 8 kHz', async () => {
    const pcm = await openaiTts.synthesize('Hello there.');
    expect(pcm.length).toBeGreaterThan(7900);
    expect(pcm.length).toBeLessThan(8100);
  });

  it.each(['slow', 'broken'] as const)('a %s service falls back to the embedded engines', async (how) => {
    mode = how;
    fallbacks.length = 0;
    const started = Date.now();
    const pcm = await openaiTts.synthesize('Hello there.');
    expect(pcm.length).toBeGreaterThan(4000); // espeak-ng said it
    expect(await openaiAsr.recognize(new Int16Array(8000))).toBe(''); // pocketsphinx heard silence
    expect(fallbacks).toEqual(['tts:openai', 'asr:openai']);
    if (how === 'slow') expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  });

  it('streams audio to a websocket recogniser while the caller speaks', async () => {
    const asr = recognizerFor(config({ VOICE_ASR: 'websocket', VOICE_ASR_URL: wsUrl }), notice);
    const stream = asr.stream!({ phrases: ['a', 'b'] });
    for (let i = 0; i < 50; i++) stream.write(new Int16Array(160));
    expect(await stream.finish()).toBe('streamed 16000 bytes at 8000 with 2 phrases');
  });

  it('a websocket service that answers garbage or nothing falls back', async () => {
    const asr = recognizerFor(config({ VOICE_ASR: 'websocket', VOICE_ASR_URL: wsUrl }), notice);
    for (const how of ['broken', 'slow'] as const) {
      mode = how;
      fallbacks.length = 0;
      const stream = asr.stream!();
      stream.write(new Int16Array(160));
      expect(await stream.finish()).toBe('');
      expect(fallbacks).toEqual(['asr:websocket']);
    }
    const unreachable = recognizerFor(config({ VOICE_ASR: 'websocket', VOICE_ASR_URL: 'ws://127.0.0.1:1' }), notice);
    fallbacks.length = 0;
    expect(await unreachable.recognize(new Int16Array(1600))).toBe('');
    expect(fallbacks).toEqual(['asr:websocket']);
  });
});
