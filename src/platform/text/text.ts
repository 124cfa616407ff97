/**
 * Text analysis shared by indexing and querying: normalisation, tokenisation, stopwords and a light
 * English stemmer. Pure and deterministic; the index and the query must go through the same steps.
 */

const COMBINING_MARKS = /\p{M}+/gu;
const NON_ASCII = /\P{ASCII}/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Unicode NFKD, combining accents removed, lower case: "Remboursément" → "remboursement". */
export function normalise(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(COMBINING_MARKS, '') : lower;
}

function isApostrophe(c: number): boolean {
  return c === 0x27 || c === 0x2019 || c === 0x2018 || c === 0x60;
}

/**
 * Normalised words: runs of letters and digits (any script). An apostrophe inside a word is dropped
 * ("customer's" → "customers", "don't" → "dont"). Single letters are dropped; single digits kept.
 */
export function tokenise(text: string): string[] {
  const s = normalise(text);
  const out: string[] = [];
  let word = '';
  let start = -1; // start of the current run of word characters, or -1
  const flush = (end: number) => {
    if (start >= 0) word += s.slice(start, end);
    start = -1;
    if (word.length > 1 || (word.length === 1 && word >= '0' && word <= '9')) out.push(word);
    word = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let isWord: boolean;
    let width = 1;
    if (c < 0x80) {
      isWord = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    } else {
      const cp = s.codePointAt(i)!;
      width = cp > 0xffff ? 2 : 1;
      isWord = LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
    }
    if (isWord) {
      if (start < 0) start = i;
      i += width - 1;
      continue;
    }
    if (isApostrophe(c) && start >= 0 && i + 1 < s.length && isWordChar(s, i + 1)) {
      word += s.slice(start, i);
      start = i + 1;
      continue;
    }
    if (start >= 0 || word.length > 0) flush(i);
  }
  if (start >= 0 || word.length > 0) flush(s.length);
  return out;
}

/** Marks that end a clause: adjacent words across them are not read as one phrase. */
const CLAUSE_BREAK = /[.,;:!?()[\]{}"\u2026\n\r|/\u2013\u2014]+/;

/**
 * `tokenise`, run by run of text between punctuation ("sign up. In" is two runs): a phrase
 * ("sign up", "log in") is read only from words written next to each other in one run.
 */
export function tokeniseClauses(text: string): string[][] {
  const out: string[][] = [];
  for (const part of text.split(CLAUSE_BREAK)) {
    const words = tokenise(part);
    if (words.length > 0) out.push(words);
  }
  return out;
}

function isWordChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(s.codePointAt(i)!));
}

/** A short English stopword list (normalised forms, apostrophes already dropped). */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then than so as of to in on at by for with about from into onto over under up down out off ' +
    'is are was were be been being am do does did done doing have has had having ' +
    'i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'this that these those there here what which who whom whose how when where why ' +
    'can could would should will shall may might must ' +
    'not no nor yes very too also just only any some all each both such own same other more most ' +
    'get got want wanted please hi hello hey thanks thank ok okay ' +
    'im ive id ill youre youve youd theyre weve its whats hows wheres whos thats theres ' +
    'dont doesnt didnt cant cannot couldnt wont wouldnt shouldnt isnt arent wasnt werent havent hasnt hadnt ' +
    'don doesn didn isn aren wasn weren haven hasn hadn couldn wouldn shouldn won ll ve re'
  ).split(/\s+/),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

const VOWEL = /[aeiouy]/;

function hasVowel(s: string): boolean {
  return VOWEL.test(s);
}

/** Drops `suffix` when what remains is at least `minStem` long and holds a vowel. */
function strip(word: string, suffix: string, minStem: number): string | null {
  if (!word.endsWith(suffix)) return null;
  const stem = word.slice(0, word.length - suffix.length);
  return stem.length >= minStem && hasVowel(stem) ? stem : null;
}

function isConsonant(c: string): boolean {
  return c >= 'a' && c <= 'z' && !'aeiou'.includes(c);
}

/**
 * A light English stemmer (a small subset of Porter's rules), enough that inflections meet:
 * refunds/refunded/refunding → refund; cancellation/cancelation/cancelling/canceled → cancel;
 * deliveries/delivery/delivered → deliver; charges/charging/charged → charg.
 * Words holding anything but a–z (digits, other scripts) are returned unchanged.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;

  // Plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is') && w.length > 3)
    w = w.slice(0, -1);

  // Derivational and inflectional suffixes (the first that applies).
  const stripped =
    strip(w, 'ation', 3) ??
    strip(w, 'ment', 3) ??
    strip(w, 'ingly', 3) ??
    strip(w, 'edly', 3) ??
    strip(w, 'ing', 3) ??
    (w.endsWith('eed') ? null : strip(w, 'ed', 3)) ?? // "need", "agreed" keep their "eed"
    strip(w, 'ly', 4);
  if (stripped !== null) w = stripped;

  // "delivery" meets "deliver", "query" (too short) stays.
  if (w.endsWith('ery') && w.length >= 6) w = w.slice(0, -1);
  // Undouble a final consonant (but not s): cancell → cancel, shipp → ship, call → cal.
  const n = w.length;
  if (n >= 3 && w[n - 1] === w[n - 2] && isConsonant(w[n - 1]) && w[n - 1] !== 's') w = w.slice(0, -1);
  // A final e goes: charge → charg (meets charging → charg), store → stor.
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

export interface Term {
  /** The normalised word as written. */
  surface: string;
  /** Its stem: what the index matches on. */
  stem: string;
}

/**
 * Normalised, stopword-free words with their stems, in text order (repeats kept). A caller analysing
 * many texts passes a `stemCache` (surface → stem) it keeps for the batch: stemming dominates otherwise.
 */
const HYPHENATED = /([\p{L}\p{N}]+)[-\u2010\u2011]([\p{L}\p{N}]+)/gu;

/**
 * The joined forms of a text's hyphenated words ("Wi-Fi" → "wifi", "check-in" → "checkin"), which
 * customers often type as one word; tokenise keeps the parts.
 */
export function hyphenJoined(text: string): string[] {
  if (!text.includes('-') && !text.includes('\u2010') && !text.includes('\u2011')) return [];
  const out: string[] = [];
  for (const match of text.matchAll(HYPHENATED)) {
    const joined = normalise(match[1] + match[2]);
    if (/^[a-z]+$/.test(joined)) out.push(joined);
  }
  return out;
}

export function analyse(text: string, stemCache?: Map<string, string>): Term[] {
  const out: Term[] = [];
  for (const surface of tokenise(text)) {
    if (STOPWORDS.has(surface)) continue;
    let s = stemCache?.get(surface);
    if (s === undefined) {
      s = stem(surface);
      stemCache?.set(surface, s);
    }
    out.push({ surface, stem: s });
  }
  return out;
}

/**
 * Just the stems of `analyse`, for indexing many texts: `stemCache` (surface → stem) is filled with
 * every word met, so after a batch it holds the batch's vocabulary.
 */
export function stems(text: string, stemCache: Map<string, string> = new Map()): string[] {
  const out: string[] = [];
  stemsInto(tokenise(text), out, stemCache);
  return stemsInto(hyphenJoined(text), out, stemCache);
}

/** `stems` of words already tokenised (stopwords dropped here), appended to `out`. */
export function stemsInto(words: readonly string[], out: string[], stemCache: Map<string, string>): string[] {
  for (const surface of words) {
    if (STOPWORDS.has(surface)) continue;
    let s = stemCache.get(surface);
    if (s === undefined) {
      s = stem(surface);
      stemCache.set(surface, s);
    }
    out.push(s);
  }
  return out;
}
