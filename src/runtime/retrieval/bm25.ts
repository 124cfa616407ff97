/**
 * Okapi BM25 over documents made of weighted fields (BM25F): a term's frequency in each field is
 * length-normalised against that field's average length, weighted, summed, then saturated with k1.
 * Everything that does not depend on the query is computed once at build time, so a posting holds
 * the term's final saturated weight in its document and scoring is one multiply-add per posting.
 */

interface FieldSpec {
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

/** A built index as plain data: what `parts()` gives and `fromParts()` takes. */
export interface Bm25Parts {
  docCount: number;
  /** Term strings by term id. */
  terms: readonly string[];
  idfs: Float64Array;
  /** Term t's postings are docs[offsets[t]..offsets[t + 1]) (and the same range of weights). */
  offsets: Int32Array;
  docs: Int32Array;
  weights: Float64Array;
}

export class Bm25Index {
  readonly docCount: number;
  /** Term strings by term id. */
  readonly terms: readonly string[];
  private readonly idfs: Float64Array;

  private constructor(
    private readonly data: Bm25Parts,
    private readonly ids: ReadonlyMap<string, number>,
    private readonly lists: readonly Postings[],
  ) {
    this.docCount = data.docCount;
    this.terms = data.terms;
    this.idfs = data.idfs;
  }

  /**
   * `docs[d][f]` holds document d's terms in field f (already analysed; repeats count).
   * Field f is weighted by `options.fields[f]`.
   */
  static build(docs: ReadonlyArray<ReadonlyArray<readonly string[]>>, options: Bm25Options): Bm25Index {
    const fieldCount = options.fields.length;
    const n = docs.length;
    const ids = new Map<string, number>();
    const terms: string[] = [];

    // Pass 1: words → term ids, field lengths.
    const encoded: Int32Array[][] = [];
    const totalLength = new Float64Array(fieldCount);
    for (const fields of docs) {
      const doc: Int32Array[] = [];
      for (let f = 0; f < fieldCount; f++) {
        const words = fields[f] ?? [];
        const out = new Int32Array(words.length);
        for (let i = 0; i < words.length; i++) {
          let id = ids.get(words[i]);
          if (id === undefined) {
            id = terms.length;
            ids.set(words[i], id);
            terms.push(words[i]);
          }
          out[i] = id;
        }
        totalLength[f] += words.length;
        doc.push(out);
      }
      encoded.push(doc);
    }
    const termCount = terms.length;
    const avg = Array.from(totalLength, (total) => (n > 0 ? total / n : 0));

    // Pass 2: document frequencies.
    const docFreq = new Int32Array(termCount);
    const lastDoc = new Int32Array(termCount).fill(-1);
    for (let d = 0; d < n; d++) {
      for (const field of encoded[d]) {
        for (const id of field) {
          if (lastDoc[id] !== d) {
            lastDoc[id] = d;
            docFreq[id]++;
          }
        }
      }
    }

    // Pass 3: per document, each term's length-normalised, weighted frequency, saturated into its
    // posting. All postings share two arrays, term after term (offsets[t] is where term t's begin):
    // two buffers to hand to another thread instead of two per term.
    const offsets = new Int32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + docFreq[t];
    const postDocs = new Int32Array(offsets[termCount]);
    const postWeights = new Float64Array(offsets[termCount]);
    const fill = offsets.slice(0, termCount);
    const tf = new Float64Array(termCount);
    lastDoc.fill(-1);
    const k1 = options.k1;
    const inDoc: number[] = [];
    for (let d = 0; d < n; d++) {
      inDoc.length = 0;
      for (let f = 0; f < fieldCount; f++) {
        const field = encoded[d][f];
        if (field.length === 0) continue;
        const { weight, b } = options.fields[f];
        const norm = avg[f] > 0 ? 1 - b + (b * field.length) / avg[f] : 1;
        const add = weight / norm;
        for (const id of field) {
          if (lastDoc[id] !== d) {
            lastDoc[id] = d;
            tf[id] = 0;
            inDoc.push(id);
          }
          tf[id] += add;
        }
      }
      for (const id of inDoc) {
        const at = fill[id]++;
        postDocs[at] = d;
        postWeights[at] = (tf[id] * (k1 + 1)) / (tf[id] + k1);
      }
    }

    const idfs = Float64Array.from(docFreq, (df) => idf(n, df));
    return Bm25Index.fromParts({ docCount: n, terms, idfs, offsets, docs: postDocs, weights: postWeights });
  }

  /** The index as plain data a worker thread can post (its typed arrays' buffers can be transferred). */
  parts(): Bm25Parts {
    return this.data;
  }

  static fromParts(parts: Bm25Parts): Bm25Index {
    const { terms, offsets, docs, weights } = parts;
    const ids = new Map<string, number>();
    const lists: Postings[] = new Array(terms.length);
    for (let t = 0; t < terms.length; t++) {
      ids.set(terms[t], t);
      lists[t] = {
        docs: docs.subarray(offsets[t], offsets[t + 1]),
        weights: weights.subarray(offsets[t], offsets[t + 1]),
      };
    }
    return new Bm25Index(parts, ids, lists);
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
