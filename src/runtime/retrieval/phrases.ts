/**
 * Multi-word expressions in a text: adjacent words the thesaurus knows as one phrase ("sign up",
 * "log in", "credit card"). Read before stopwords go, as a phrasal verb's particle is often one
 * ("up", "in", "out"), and only within a run of text between punctuation (text.ts
 * `tokeniseClauses`). Pure: the caller says which phrases exist.
 */
import { isStopword } from '../../platform/text/text';

export interface PhraseMatch {
  /** The phrase as the thesaurus writes it: dictionary forms joined by "_" ("sign_up"). */
  key: string;
  /** The words of the text it was read from, as written ("signed", "up"). */
  words: string[];
}

const LATIN = /^[a-z]+$/;

/** The thesaurus' phrases (thesaurus.ts implements it). */
export interface PhraseLookup {
  /** The phrase of three, or else two, words of `words` from `at`, or null; cheap for most words. */
  phraseAt(words: readonly string[], at: number): { key: string; length: number } | null;
  /** The phrase `words` write as a whole, or null. */
  phrase(words: readonly string[]): string | null;
}

/**
 * The phrases of `clauses` (runs of normalised words), longest first at each word (three words, then
 * two); overlapping phrases are all kept. `corrections`, when given, offers other spellings of a word
 * ("chek" → "check") to try when the words as written form no phrase; at most one word of a phrase
 * is replaced.
 */
export function findPhrases(
  clauses: ReadonlyArray<readonly string[]>,
  lookup: PhraseLookup,
  corrections?: (word: string) => readonly string[],
): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const words of clauses) {
    for (let i = 0; i + 1 < words.length; i++) {
      const found = lookup.phraseAt(words, i);
      if (found !== null) {
        const span = words.slice(i, i + found.length);
        if (readable(span)) out.push({ key: found.key, words: span });
        continue;
      }
      if (!corrections || !hasCorrection(words, i, corrections)) continue;
      for (const length of [3, 2]) {
        const span = words.slice(i, i + length);
        if (span.length < length || !readable(span)) continue;
        const key = corrected(span, lookup, corrections);
        if (key === null) continue;
        out.push({ key, words: span });
        break;
      }
    }
  }
  return out;
}

/** Whether a word of the window from `at` has other spellings to try: few have (most words are known). */
function hasCorrection(
  words: readonly string[],
  at: number,
  corrections: (word: string) => readonly string[],
): boolean {
  for (let j = at; j < words.length && j < at + 3; j++) if (corrections(words[j]).length > 0) return true;
  return false;
}

/** Latin letters only, and not all function words ("at all", "in on"): those carry no topic. */
function readable(span: readonly string[]): boolean {
  return span.every((w) => LATIN.test(w)) && !span.every(isStopword);
}

function corrected(
  span: readonly string[],
  lookup: PhraseLookup,
  corrections: (word: string) => readonly string[],
): string | null {
  for (let at = 0; at < span.length; at++) {
    if (isStopword(span[at])) continue; // a function word is not misspelled into another
    for (const other of corrections(span[at])) {
      const key = lookup.phrase(span.map((w, j) => (j === at ? other : w)));
      if (key !== null) return key;
    }
  }
  return null;
}
