import { resample } from '../media/resample';
import { decodeWav, encodeWav } from '../media/wav';
import type { RecognitionOptions, SpeechRecognizer, SpeechSynthesizer } from './speech.port';

export interface HostedEndpoint {
  /** the API's base, e.g. https://api.openai.com/v1 */
  url: string;
  apiKey: string | null;
  model: string;
}

const headers = (apiKey: string | null): Record<string, string> =>
  apiKey ? { authorization: `Bearer ${apiKey}` } : {};

/** what an answer body may be: a reply larger than this is refused rather than buffered */
const MAX_AUDIO_BYTES = 20 * 1024 * 1024;

/** An OpenAI-compatible `POST /audio/transcriptions` (Whisper and the servers that copy its API). */
export class OpenAiRecognizer implements SpeechRecognizer {
  readonly name = 'openai';

  constructor(private readonly endpoint: HostedEndpoint) {}

  async recognize(pcm: Int16Array, options: RecognitionOptions = {}): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([encodeWav(pcm, 8000)], { type: 'audio/wav' }), 'utterance.wav');
    form.append('model', this.endpoint.model);
    form.append('response_format', 'json');
    // Whisper's prompt biases it toward the words it has seen, the hosted cousin of a grammar
    if (options.phrases?.length) form.append('prompt', options.phrases.join('. ').slice(0, 800));
    const response = await fetch(`${this.endpoint.url}/audio/transcriptions`, {
      method: 'POST',
      body: form,
      headers: headers(this.endpoint.apiKey),
      signal: options.signal,
    });
    if (!response.ok) throw new Error(`transcription answered HTTP ${response.status}`);
    const body = (await response.json()) as unknown;
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') throw new Error('transcription answered without a text');
    return text.trim();
  }
}

/** An OpenAI-compatible `POST /audio/speech`, asked for WAV and taken to 8 kHz. */
export class OpenAiSynthesizer implements SpeechSynthesizer {
  readonly name = 'openai';

  constructor(private readonly endpoint: HostedEndpoint & { voice: string }) {}

  async synthesize(text: string, signal?: AbortSignal): Promise<Int16Array> {
    if (!text.trim()) return new Int16Array(0);
    const response = await fetch(`${this.endpoint.url}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers(this.endpoint.apiKey) },
      body: JSON.stringify({
        model: this.endpoint.model,
        input: text,
        voice: this.endpoint.voice,
        response_format: 'wav',
      }),
      signal,
    });
    if (!response.ok) throw new Error(`speech answered HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_AUDIO_BYTES) throw new Error('speech answered more audio than one sentence');
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > MAX_AUDIO_BYTES) throw new Error('speech answered more audio than one sentence');
    const wav = decodeWav(bytes);
    if (!wav) throw new Error('speech answered something that is not a 16-bit mono WAV');
    return resample(wav.pcm, wav.sampleRate, 8000);
  }
}
