import { execFileSync } from 'node:child_process';
import { EspeakSynthesizer } from '../../src/voice/speech/espeak-synthesizer';
import { PocketsphinxRecognizer } from '../../src/voice/speech/pocketsphinx-recognizer';

/** A program on the PATH (Debian's speech packages; `.ci/run` installs them). */
function installed(bin: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`]);
    return true;
  } catch {
    return false;
  }
}

/** The embedded speech engines are here: the voice tests that speak and listen run. */
export const speechInstalled = installed('pocketsphinx_continuous') && installed('espeak-ng');

/** `describe` where the embedded speech engines are installed, `describe.skip` elsewhere. */
export const describeSpeech = speechInstalled ? describe : describe.skip;

/** The embedded engines the tests' own side speaks and listens with. */
export const embeddedTts = () => new EspeakSynthesizer('espeak-ng', 'en-us');
export const embeddedAsr = () =>
  new PocketsphinxRecognizer('pocketsphinx_continuous', '/usr/share/pocketsphinx/model/en-us');

/** Polls `get` every 50 ms until it gives something, at most `ms`. */
export async function until<T>(
  what: string,
  get: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
