import { resample } from '../media/resample';
import { decodeWav } from '../media/wav';
import { runProcess } from './run-process';
import type { SpeechSynthesizer } from './speech.port';

/** what one call to espeak-ng may speak; longer answers arrive sentence by sentence anyway */
const MAX_TEXT = 2000;

/** The embedded synthesiser: espeak-ng, a process per sentence, its 22.05 kHz WAV taken to 8 kHz. */
export class EspeakSynthesizer implements SpeechSynthesizer {
  readonly name = 'espeak-ng';

  constructor(
    private readonly bin: string,
    private readonly voice: string,
  ) {}

  async synthesize(text: string, signal?: AbortSignal): Promise<Int16Array> {
    const clean = [...text]
      .map((c) => (c.charCodeAt(0) < 0x20 ? ' ' : c))
      .join('')
      .trim()
      .slice(0, MAX_TEXT);
    if (!clean) return new Int16Array(0);
    // the text goes in on stdin, never as an argument a leading '-' could turn into an option
    const wav = await runProcess(this.bin, ['-v', this.voice, '--stdout', '--stdin'], clean, signal);
    const decoded = decodeWav(wav);
    if (!decoded) throw new Error('espeak-ng wrote something that is not a 16-bit mono WAV');
    return resample(decoded.pcm, decoded.sampleRate, 8000);
  }
}
