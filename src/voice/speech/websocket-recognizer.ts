import WebSocket from 'ws';
import type { RecognitionOptions, RecognitionStream, SpeechRecognizer } from './speech.port';

/**
 * A streaming recogniser over a WebSocket service, in the small protocol docs/voice.md defines:
 *
 *   → text   {"type":"start","sample_rate":8000,"encoding":"pcm_s16le","phrases":[...]}
 *   → binary 16-bit little-endian mono PCM, as the caller speaks (20 ms frames)
 *   → text   {"type":"end"}
 *   ← text   {"type":"partial","text":"..."} any number of times (ignored here)
 *   ← text   {"type":"final","text":"..."} once, after "end"; then either side closes
 *
 * Audio is sent while the caller is still speaking, so the text is ready soon after they stop.
 */
export class WebSocketRecognizer implements SpeechRecognizer {
  readonly name = 'websocket';

  constructor(
    private readonly url: string,
    private readonly apiKey: string | null,
  ) {}

  async recognize(pcm: Int16Array, options: RecognitionOptions = {}): Promise<string> {
    const stream = this.stream(options);
    for (let i = 0; i < pcm.length; i += 160) stream.write(pcm.subarray(i, i + 160));
    return stream.finish();
  }

  stream(options: RecognitionOptions = {}): RecognitionStream {
    const socket = new WebSocket(this.url, {
      headers: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
      maxPayload: 64 * 1024,
    });
    const pending: Buffer[] = [];
    let finished = false;
    const final = new Promise<string>((resolve, reject) => {
      const fail = (error: Error) => {
        socket.terminate();
        reject(error);
      };
      options.signal?.addEventListener('abort', () => fail(new Error('recognition aborted')), { once: true });
      socket.on('error', (e) => fail(new Error(`recognition service: ${e.message}`)));
      socket.on('close', () => reject(new Error('recognition service closed before its final text')));
      socket.on('open', () => {
        socket.send(
          JSON.stringify({ type: 'start', sample_rate: 8000, encoding: 'pcm_s16le', phrases: options.phrases ?? [] }),
        );
        for (const chunk of pending.splice(0)) socket.send(chunk);
        if (finished) socket.send(JSON.stringify({ type: 'end' }));
      });
      socket.on('message', (data, binary) => {
        if (binary) return;
        let message: unknown;
        try {
          message = JSON.parse(data.toString());
        } catch {
          return fail(new Error('recognition service sent something that is not JSON'));
        }
        const m = message as { type?: unknown; text?: unknown } | null;
        if (m?.type === 'final' && typeof m.text === 'string') {
          resolve(m.text.trim());
          socket.close();
        }
      });
    });
    final.catch(() => undefined); // finish() is where a failure is read
    const send = (chunk: Buffer) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(chunk);
      else if (socket.readyState === WebSocket.CONNECTING) pending.push(chunk);
    };
    return {
      write: (frame) => send(Buffer.from(frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength))),
      finish: () => {
        finished = true;
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'end' }));
        return final;
      },
      cancel: () => socket.terminate(),
    };
  }
}
