/**
 * Misspelling tolerance, SymSpell style: every vocabulary word is indexed under itself and under
 * each string obtained by deleting up to `depth` of its characters (1, or 2 for words of 8+ letters).
 * A query word generates its own deletions the same way; words sharing a key are candidates, kept
 * when their true edit distance (optimal string alignment: insert, delete, substitute, swap two
 * neighbours) is small enough. Lookup cost depends on the query word, not on the vocabulary size.
 */

/** The longest distance a word of this length is indexed / searched with. */
export function maxDistanceFor(length: number): number {
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

/** Every string obtained by deleting 1..depth characters of `word` (no duplicates), into `out`. */
export function deletions(word: string, depth: number, out: Set<string> = new Set()): Set<string> {
  if (depth <= 0 || word.length <= 1) return out;
  for (let i = 0; i < word.length; i++) {
    const shorter = word.slice(0, i) + word.slice(i + 1);
    if (out.has(shorter)) continue;
    out.add(shorter);
    if (depth > 1) deletions(shorter, depth - 1, out);
  }
  return out;
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
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
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

export class FuzzyIndex {
  private constructor(
    private readonly words: readonly string[],
    /** key (a word or one of its deletions) → word number(s) */
    private readonly keys: ReadonlyMap<string, number | number[]>,
  ) {}

  static build(vocabulary: Iterable<string>): FuzzyIndex {
    const words: string[] = [];
    const keys = new Map<string, number | number[]>();
    const add = (key: string, w: number) => {
      const at = keys.get(key);
      if (at === undefined) keys.set(key, w);
      else if (typeof at === 'number') {
        if (at !== w) keys.set(key, [at, w]);
      } else if (at[at.length - 1] !== w) at.push(w);
    };
    const seen = new Set<string>();
    const scratch = new Set<string>();
    for (const word of vocabulary) {
      if (word.length === 0 || seen.has(word)) continue;
      seen.add(word);
      const w = words.length;
      words.push(word);
      add(word, w);
      scratch.clear();
      for (const key of deletions(word, maxDistanceFor(word.length), scratch)) add(key, w);
    }
    return new FuzzyIndex(words, keys);
  }

  get vocabularySize(): number {
    return this.words.length;
  }

  /** Vocabulary words within `maxDistance` of `query` (itself included), nearest first. */
  lookup(query: string, maxDistance: number): FuzzyMatch[] {
    if (maxDistance < 0 || query.length === 0) return [];
    const candidates = new Set<number>();
    const collect = (key: string) => {
      const at = this.keys.get(key);
      if (at === undefined) return;
      if (typeof at === 'number') candidates.add(at);
      else for (const w of at) candidates.add(w);
    };
    collect(query);
    for (const key of deletions(query, maxDistance)) collect(key);
    const out: FuzzyMatch[] = [];
    for (const w of candidates) {
      const word = this.words[w];
      const distance = editDistance(query, word, maxDistance);
      if (distance <= maxDistance) out.push({ word, distance });
    }
    return out.sort((a, b) => a.distance - b.distance || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  }
}
