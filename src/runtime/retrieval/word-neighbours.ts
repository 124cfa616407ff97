import { NEIGHBOUR_WORDS, NEIGHBOURS } from './word-neighbours-data';

export interface Neighbour {
  word: string;
  /** cosine similarity of the two words' GloVe vectors, 0.55 to 1 */
  similarity: number;
}

interface Table {
  words: readonly string[];
  index: Map<string, number>;
  /** where each word's entries start in `data` (its count byte) */
  offsets: Uint32Array;
  data: Uint8Array;
}

let table: Table | null = null;

/** Decoded on first use, once per thread (about 5 MB): the index build asks first, not a turn. */
function load(): Table {
  if (table) return table;
  const words = NEIGHBOUR_WORDS.split(' ');
  const data = Buffer.from(NEIGHBOURS, 'base64');
  const offsets = new Uint32Array(words.length);
  for (let i = 0, at = 0; i < words.length; i++) {
    offsets[i] = at;
    at += 1 + data[at] * 3;
  }
  table = { words, index: new Map(words.map((w, i) => [w, i])), offsets, data };
  return table;
}

/** Reads the table now, so that the first search does not (an index build calls this). */
export function loadWordNeighbours(): void {
  load();
}

/**
 * A word's nearest words in general English usage, most similar first (GloVe, 60,000 most frequent
 * words; scripts/build-word-neighbours.py). Related rather than synonymous ("cheaper" is near
 * "expensive"): a caller weighs them below the word itself. Empty for a word it does not know.
 */
export function neighboursOf(word: string): Neighbour[] {
  const { words, index, offsets, data } = load();
  const i = index.get(word);
  if (i === undefined) return [];
  const out: Neighbour[] = [];
  let at = offsets[i];
  const count = data[at++];
  for (let k = 0; k < count; k++, at += 3)
    out.push({ word: words[data[at] | (data[at + 1] << 8)], similarity: data[at + 2] / 100 });
  return out;
}
