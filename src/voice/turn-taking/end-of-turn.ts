import { normalisePhrase } from '../speech/jsgf';

/**
 * How long a pause ends the caller's turn, from what was heard before it: a complete request ends
 * it after `minMs`, a phrase left hanging ("I'd like to… um…") only after `maxMs`, anything else
 * after the default (VOICE_END_OF_UTTERANCE_MS).
 */
export interface EndOfTurnBounds {
  minMs: number;
  maxMs: number;
}

/** a last word that leaves the sentence open: fillers, conjunctions, prepositions, articles, auxiliaries */
const OPEN_ENDINGS = new Set(
  (
    'um uh er erm hmm mm ah and or but so because if then than that which who to of for with in on at by ' +
    "from into about the a an my your our their his her its this these those some any i i'd i'm i'll " +
    "we we'd you is are was were am be been have has had do does did will would could should can may " +
    'might must want wanted like need get go going just also very really not what where when how'
  ).split(' '),
);

export type Completeness = 'complete' | 'incomplete' | 'unknown';

/**
 * `complete`: ends a sentence (a hosted recogniser's punctuation) or is one of the agent's phrases
 * whole (the embedded grammar's end state); `incomplete`: ends on a word that leaves it open.
 */
export function completenessOf(text: string, phrases: readonly string[] = []): Completeness {
  const trimmed = text.trim();
  if (!trimmed) return 'unknown';
  const words = normalisePhrase(trimmed).split(' ');
  if (OPEN_ENDINGS.has(words[words.length - 1])) return 'incomplete';
  if (/[.?!]["')\]]*$/.test(trimmed)) return 'complete';
  const heard = words.join(' ');
  if (phrases.some((p) => normalisePhrase(p) === heard)) return 'complete';
  return 'unknown';
}

/** the silence, in ms, that ends the turn after a pause in which `text` had been heard */
export function endOfTurnWait(
  text: string,
  bounds: EndOfTurnBounds,
  defaultMs: number,
  phrases: readonly string[] = [],
): number {
  const completeness = completenessOf(text, phrases);
  if (completeness === 'complete') return bounds.minMs;
  if (completeness === 'incomplete') return bounds.maxMs;
  return Math.min(bounds.maxMs, Math.max(bounds.minMs, defaultMs));
}
