/**
 * Misspelling tolerance, SymSpell style: every vocabulary word is indexed under itself and under
 * each string obtained by deleting up to `depth` of its characters (1, or 2 for words of 8+ letters).
 * A query word generates its own deletions the same way; words sharing a key are candidates, kept
 * when their true edit distance (optimal string alignment: insert, delete, substitute, swap two
 * neighbours) is small enough. Lookup cost depends on the query word, not on the vocabulary size.
 *
 * Keys are never built as strings: each is a 32-bit hash of the word with one or two positions
 * skipped, chained in typed arrays. A hash collision only adds a candidate, which the distance check
 * then drops, so the index stays exact while building far faster than a Map of strings.
 */

/** The longest distance a word of this length is indexed / searched with. */
export function maxDistanceFor(length: number): number {
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

/** FNV-1a over `word`'s UTF-16 units, skipping positions `skipA` and `skipB` (-1: none). */
function hashSkipping(word: string, skipA: number, skipB: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < word.length; k++) {
    if (k === skipA || k === skipB) continue;
    h = Math.imul(h ^ word.charCodeAt(k), 0x01000193);
  }
  // Mark the key's length, so "ab" minus nothing and "abc" minus "c" differ only by content.
  return Math.imul(h ^ (word.length - (skipA >= 0 ? 1 : 0) - (skipB >= 0 ? 1 : 0)), 0x01000193) >>> 0;
}

/** Calls `visit` with the hash of `word` and of every deletion of 1..depth of its characters. */
function forEachKey(word: string, depth: number, visit: (hash: number) => void): void {
  visit(hashSkipping(word, -1, -1));
  const n = word.length;
  if (depth < 1 || n < 2) return;
  for (let i = 0; i < n; i++) {
    visit(hashSkipping(word, i, -1));
    if (depth >= 2 && n > 2) for (let j = i + 1; j < n; j++) visit(hashSkipping(word, i, j));
  }
}

function keyCount(length: number, depth: number): number {
  if (depth < 1 || length < 2) return 1;
  return 1 + length + (depth >= 2 && length > 2 ? (length * (length - 1)) / 2 : 0);
}

/** Optimal string alignment distance, or `max + 1` as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

export interface FuzzyMatch {
  word: string;
  distance: number;
}

/** A built index as plain data: what `parts()` gives and `fromParts()` takes. */
export interface FuzzyParts {
  words: readonly string[];
  /** bucket (hash & mask) → first entry + 1 (0: empty) */
  buckets: Int32Array;
  entryHash: Uint32Array;
  entryWord: Int32Array;
  /** next entry + 1 in the same bucket (0: end) */
  entryNext: Int32Array;
}

export class FuzzyIndex {
  private readonly words: readonly string[];
  private readonly buckets: Int32Array;
  private readonly entryHash: Uint32Array;
  private readonly entryWord: Int32Array;
  private readonly entryNext: Int32Array;

  private constructor(private readonly data: FuzzyParts) {
    ({
      words: this.words,
      buckets: this.buckets,
      entryHash: this.entryHash,
      entryWord: this.entryWord,
      entryNext: this.entryNext,
    } = data);
  }

  /** The index as plain data a worker thread can post (its typed arrays' buffers can be transferred). */
  parts(): FuzzyParts {
    return this.data;
  }

  static fromParts(parts: FuzzyParts): FuzzyIndex {
    return new FuzzyIndex(parts);
  }

  static build(vocabulary: Iterable<string>): FuzzyIndex {
    const words = [...new Set(vocabulary)].filter((w) => w.length > 0);
    let entries = 0;
    for (const w of words) entries += keyCount(w.length, maxDistanceFor(w.length));
    let size = 1;
    while (size < entries * 2) size <<= 1;
    const mask = size - 1;
    const buckets = new Int32Array(size);
    const entryHash = new Uint32Array(entries);
    const entryWord = new Int32Array(entries);
    const entryNext = new Int32Array(entries);
    let e = 0;
    for (let w = 0; w < words.length; w++) {
      forEachKey(words[w], maxDistanceFor(words[w].length), (hash) => {
        const b = hash & mask;
        entryHash[e] = hash;
        entryWord[e] = w;
        entryNext[e] = buckets[b];
        buckets[b] = ++e;
      });
    }
    return new FuzzyIndex({ words, buckets, entryHash, entryWord, entryNext });
  }

  get vocabularySize(): number {
    return this.words.length;
  }

  /** Vocabulary words within `maxDistance` of `query` (itself included), nearest first. */
  lookup(query: string, maxDistance: number): FuzzyMatch[] {
    if (maxDistance < 0 || query.length === 0 || this.words.length === 0) return [];
    const candidates = new Set<number>();
    const mask = this.buckets.length - 1;
    forEachKey(query, Math.min(maxDistance, 2), (hash) => {
      for (let e = this.buckets[hash & mask]; e !== 0; e = this.entryNext[e - 1]) {
        if (this.entryHash[e - 1] === hash) candidates.add(this.entryWord[e - 1]);
      }
    });
    const out: FuzzyMatch[] = [];
    for (const w of candidates) {
      const word = this.words[w];
      const distance = editDistance(query, word, maxDistance);
      if (distance <= maxDistance) out.push({ word, distance });
    }
    return out.sort((a, b) => a.distance - b.distance || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  }
}
