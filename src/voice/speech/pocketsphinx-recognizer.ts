import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resample } from '../media/resample';
import { encodeWav } from '../media/wav';
import { buildJsgf } from './jsgf';
import { runProcess } from './run-process';
import type { RecognitionOptions, SpeechRecognizer } from './speech.port';

/** ±this, added to the empty 4–8 kHz band of upsampled phone audio (about −50 dBFS) */
const NOISE = 100;
const PAD_MS = 300;

/**
 * The embedded recogniser: pocketsphinx_continuous, a process per utterance, with a JSGF grammar
 * of the expected phrases when there are any and the free-form language model when the grammar
 * finds nothing. Its en-us model is wideband (16 kHz): phone audio is upsampled, and a little
 * white noise fills the empty upper band, without which it recognised nothing at all.
 */
export class PocketsphinxRecognizer implements SpeechRecognizer {
  readonly name = 'pocketsphinx';
  private dictionary: Map<string, string[]> | null = null;
  /** per phrase list: the grammar and the few dictionary lines its words need ('' = no grammar) */
  private readonly grammars = new Map<string, { grammar: string; dictionary: string }>();

  constructor(
    private readonly bin: string,
    private readonly modelDir: string,
    private readonly workDir: string = tmpdir(),
  ) {}

  async recognize(pcm: Int16Array, options: RecognitionOptions = {}): Promise<string> {
    if (pcm.length === 0) return '';
    const dir = await mkdtemp(path.join(this.workDir, 'parley-asr-'));
    try {
      const wav = path.join(dir, 'utterance.wav');
      await writeFile(wav, encodeWav(prepare(pcm), 16000));
      const grammar = options.phrases?.length ? await this.grammarFile(dir, options.phrases) : null;
      if (grammar) {
        const text = await this.run(wav, grammar, options.signal);
        if (text) return text;
      }
      const lm = ['-lm', path.join(this.modelDir, 'en-us.lm.bin'), '-dict', this.dictionaryPath()];
      return await this.run(wav, lm, options.signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async run(wav: string, search: string[], signal?: AbortSignal): Promise<string> {
    const args = ['-infile', wav, '-hmm', path.join(this.modelDir, 'en-us'), ...search, '-logfn', '/dev/null'];
    const out = await runProcess(this.bin, args, null, signal);
    return out
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ');
  }

  private dictionaryPath(): string {
    return path.join(this.modelDir, 'cmudict-en-us.dict');
  }

  /** -jsgf and -dict arguments for the phrases, or null when none can be in a grammar */
  private async grammarFile(dir: string, phrases: readonly string[]): Promise<string[] | null> {
    const key = createHash('sha256').update(phrases.join('\n')).digest('hex');
    let entry = this.grammars.get(key);
    if (entry === undefined) {
      const words = this.words();
      const grammar = buildJsgf(phrases, (w) => words.has(w)) ?? '';
      // a dictionary of the grammar's words alone: loading all 134k entries costs more than decoding
      const alternatives = grammar.slice(grammar.indexOf('=') + 1);
      const used = new Set(alternatives.split(/[\s|;]+/).filter(Boolean));
      const dictionary = [...used].flatMap((w) => words.get(w) ?? []).join('\n');
      entry = { grammar, dictionary: `${dictionary}\n` };
      if (this.grammars.size > 100) this.grammars.clear();
      this.grammars.set(key, entry);
    }
    if (!entry.grammar) return null;
    const grammar = path.join(dir, 'phrases.gram');
    const dictionary = path.join(dir, 'phrases.dict');
    await writeFile(grammar, entry.grammar);
    await writeFile(dictionary, entry.dictionary);
    return ['-jsgf', grammar, '-dict', dictionary];
  }

  private words(): Map<string, string[]> {
    if (!this.dictionary) {
      const text = readFileSync(this.dictionaryPath(), 'utf8');
      // lines are "word PH ON EMES", alternate pronunciations "word(2) ..."
      const words = new Map<string, string[]>();
      for (const line of text.split('\n')) {
        const word = line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '');
        if (!word) continue;
        const lines = words.get(word);
        if (lines) lines.push(line);
        else words.set(word, [line]);
      }
      this.dictionary = words;
    }
    return this.dictionary;
  }
}

/** 8 kHz phone audio → what the wideband model hears best: 16 kHz, padded, the upper band filled */
function prepare(pcm: Int16Array): Int16Array {
  const wide = resample(pcm, 8000, 16000);
  const pad = (PAD_MS * 16000) / 1000;
  const out = new Int16Array(wide.length + 2 * pad);
  out.set(wide, pad);
  let seed = 0x2545f491; // a fixed xorshift seed: the same audio always gives the same text
  for (let i = 0; i < out.length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const noise = ((seed >>> 0) / 0xffffffff) * 2 * NOISE - NOISE;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(out[i] + noise)));
  }
  return out;
}
