/**
 * Okapi BM25 over documents made of weighted fields (BM25F): a term's frequency in each field is
 * length-normalised against that field's average length, weighted, summed, then saturated with k1.
 * Everything that does not depend on the query is computed once at build time, so a posting holds
 * the term's final saturated weight in its document and scoring is one multiply-add per posting.
 */

export interface FieldSpec {
  /** How much one occurrence in this field counts relative to the others. */
  weight: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b: number;
}

export interface Bm25Options {
  k1: number;
  fields: FieldSpec[];
}

export const DEFAULT_K1 = 1.2;
export const DEFAULT_B = 0.75;

export interface Postings {
  /** Document numbers, ascending. */
  docs: Int32Array;
  /** The term's saturated BM25F weight in each of those documents (idf not included). */
  weights: Float64Array;
}

/** Okapi idf, always positive: rare terms count more. */
export function idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

export class Bm25Index {
  private constructor(
    readonly docCount: number,
    /** Term strings by term id. */
    readonly terms: readonly string[],
    private readonly ids: ReadonlyMap<string, number>,
    private readonly idfs: Float64Array,
    private readonly lists: readonly Postings[],
  ) {}

  /**
   * `docs[d][f]` holds document d's terms in field f (already analysed; repeats count).
   * Field f is weighted by `options.fields[f]`.
   */
  static build(docs: ReadonlyArray<ReadonlyArray<readonly string[]>>, options: Bm25Options): Bm25Index {
    const fieldCount = options.fields.length;
    const ids = new Map<string, number>();
    const terms: string[] = [];
    // Per document: its distinct term ids and, per field, their counts (flattened term-major).
    const docTerms: Int32Array[] = [];
    const docCounts: Float64Array[] = [];
    const fieldLengths: Float64Array[] = [];
    const totalLength = new Float64Array(fieldCount);

    for (const fields of docs) {
      const local = new Map<number, number>(); // term id → slot in this document
      const counts: number[] = [];
      const lengths = new Float64Array(fieldCount);
      for (let f = 0; f < fieldCount; f++) {
        const words = fields[f] ?? [];
        lengths[f] = words.length;
        totalLength[f] += words.length;
        for (const word of words) {
          let id = ids.get(word);
          if (id === undefined) {
            id = terms.length;
            ids.set(word, id);
            terms.push(word);
          }
          let slot = local.get(id);
          if (slot === undefined) {
            slot = local.size;
            local.set(id, slot);
            for (let g = 0; g < fieldCount; g++) counts.push(0);
          }
          counts[slot * fieldCount + f]++;
        }
      }
      docTerms.push(Int32Array.from(local.keys()));
      docCounts.push(Float64Array.from(counts));
      fieldLengths.push(lengths);
    }

    const n = docs.length;
    const avg = Array.from(totalLength, (total) => (n > 0 ? total / n : 0));
    const docFreq = new Int32Array(terms.length);
    for (const t of docTerms) for (const id of t) docFreq[id]++;

    const postDocs = Array.from(docFreq, (df) => new Int32Array(df));
    const postWeights = Array.from(docFreq, (df) => new Float64Array(df));
    const fill = new Int32Array(terms.length);
    const k1 = options.k1;
    for (let d = 0; d < n; d++) {
      const t = docTerms[d];
      const counts = docCounts[d];
      const lengths = fieldLengths[d];
      for (let slot = 0; slot < t.length; slot++) {
        let tf = 0;
        for (let f = 0; f < fieldCount; f++) {
          const c = counts[slot * fieldCount + f];
          if (c === 0) continue;
          const { weight, b } = options.fields[f];
          const norm = avg[f] > 0 ? 1 - b + (b * lengths[f]) / avg[f] : 1;
          tf += (weight * c) / norm;
        }
        const id = t[slot];
        const at = fill[id]++;
        postDocs[id][at] = d;
        postWeights[id][at] = (tf * (k1 + 1)) / (tf + k1);
      }
    }

    const idfs = Float64Array.from(docFreq, (df) => idf(n, df));
    const lists = postDocs.map((docsOf, id) => ({ docs: docsOf, weights: postWeights[id] }));
    return new Bm25Index(n, terms, ids, idfs, lists);
  }

  /** The id of an indexed term, or undefined. */
  termId(term: string): number | undefined {
    return this.ids.get(term);
  }

  idf(termId: number): number {
    return this.idfs[termId];
  }

  docFreq(termId: number): number {
    return this.lists[termId].docs.length;
  }

  postings(termId: number): Postings {
    return this.lists[termId];
  }

  /** The idf a term found in a single document would have: the largest possible. */
  get maxIdf(): number {
    return idf(this.docCount, 1);
  }
}
