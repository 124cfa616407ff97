import { decodeG711, encodeG711 } from '../media/g711';
import { rms } from '../media/resample';
import { EspeakSynthesizer } from './espeak-synthesizer';
import { PocketsphinxRecognizer } from './pocketsphinx-recognizer';

const MODEL = '/usr/share/pocketsphinx/model/en-us';
const tts = new EspeakSynthesizer('espeak-ng', 'en-us');
const asr = new PocketsphinxRecognizer('pocketsphinx_continuous', MODEL);
/** what a phone line does to audio: G.711 µ-law both ways */
const throughThePhone = (pcm: Int16Array) => decodeG711('PCMU', encodeG711('PCMU', pcm));

const PHRASES = [
  'What are your opening hours?',
  'Where is your office?',
  'I want to talk to a person',
  'Hello',
  'Goodbye',
];

describe('embedded speech: espeak-ng and pocketsphinx', () => {
  it('espeak-ng speaks 8 kHz PCM of a plausible length and level', async () => {
    const pcm = await tts.synthesize('What are your opening hours?');
    expect(pcm.length / 8000).toBeGreaterThan(0.8);
    expect(pcm.length / 8000).toBeLessThan(4);
    expect(rms(pcm)).toBeGreaterThan(500);
    expect(await tts.synthesize('  ')).toHaveLength(0);
  });

  it('treats text that looks like an option as text', async () => {
    const pcm = await tts.synthesize('--help me');
    expect(pcm.length).toBeGreaterThan(4000);
  });

  it('recognises the phrase exactly with a grammar of the expected phrases, over G.711', async () => {
    const pcm = throughThePhone(await tts.synthesize('What are your opening hours?'));
    expect(await asr.recognize(pcm, { phrases: PHRASES })).toBe('what are your opening hours');
  });

  it('falls back to free-form recognition when the grammar cannot hold the phrases', async () => {
    const pcm = throughThePhone(await tts.synthesize('Hello'));
    const text = await asr.recognize(pcm, { phrases: ['qwertyuiop zxcvb'] });
    expect(typeof text).toBe('string');
    expect(text.length).toBeGreaterThan(0);
  });

  it('hears nothing in silence, and a missing binary is an error, not a hang', async () => {
    expect(await asr.recognize(new Int16Array(8000), { phrases: PHRASES })).toBe('');
    await expect(
      new PocketsphinxRecognizer('/nonexistent/pocketsphinx', MODEL).recognize(new Int16Array(800)),
    ).rejects.toThrow(/nonexistent/);
  });
});
