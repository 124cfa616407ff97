/**
 * Retrieval of knowledge base topics for the embedded runtime (contract §6): BM25F over a topic's
 * name, example queries and content, with stemming, accent folding and misspelling tolerance.
 * Built once per deployment (the caller caches it); `search` allocates little and touches only the
 * postings of the query's terms.
 */
import { Bm25Index, DEFAULT_B, DEFAULT_K1, type Bm25Parts } from './bm25';
import { FuzzyIndex, maxDistanceFor, type FuzzyMatch, type FuzzyParts } from '../../platform/text/fuzzy';
import { findPhrases } from './phrases';
import { FILLER, SYNONYMS } from './synonyms';
import { hyphenJoined, isStopword, stem, stemsInto, tokeniseClauses, type Term } from '../../platform/text/text';
import { termStem, thesaurus, type Relation } from './thesaurus';
import { WordMemo } from './word-memo';
import { loadWordNeighbours, neighboursOf } from './word-neighbours';

export interface SearchHit {
  topicId: string;
  name: string;
  score: number;
  /** In [0, 1]: the idf-weighted share of the query's terms this topic matches (fuzzy matches at a discount). */
  confidence: number;
}

export interface IndexableTopic {
  id: string;
  name: string;
  content: string;
  exampleQueries: string[];
  isActive: boolean;
}

/** Below this, the best hit is not cited (the agent's default confidence threshold). */
export { OUT_OF_DOMAIN_CONFIDENCE } from '../../agents/runtime-defaults';

const DEFAULT_LIMIT = 5;

/** Field order in the BM25 documents, and their weights: name and example queries weigh more. */
const FIELDS = [
  { weight: 3, b: DEFAULT_B }, // name
  { weight: 2, b: DEFAULT_B }, // example queries (all of them, as one field)
  { weight: 1, b: DEFAULT_B }, // content
];

/** What a misspelled term is worth next to an exact one, by edit distance (and word length). */
function fuzzyDiscount(distance: number, length: number): number {
  if (distance === 0) return 1;
  if (distance === 1) return length >= 5 ? 0.75 : 0.2; // a short word one edit away is often another word
  return 0.5;
}

/** At most this many vocabulary terms stand in for one unknown query word. */
const MAX_FUZZY_CANDIDATES = 3;

/** What a synonym is worth next to the word itself: a near miss, like a one-edit misspelling. */
const SYNONYM_DISCOUNT = 0.8;

/**
 * What a word of the general thesaurus (thesaurus.ts) is worth next to the query word, by relation:
 * below the hand-picked synonyms, as WordNet also lists senses a customer rarely means.
 */
const THESAURUS_DISCOUNT: Readonly<Record<Relation, number>> = { 3: 0.5, 2: 0.3, 1: 0.3 };

/**
 * The share of that discount a thesaurus word adds to confidence: it mostly reorders topics the
 * question already reaches, and seldom makes an off-topic question look answered ("bread" is
 * also money in WordNet).
 */
const THESAURUS_CONFIDENCE_SHARE = 0.4;

/**
 * What a GloVe neighbour (word-neighbours.ts) of a word the index lacks is worth, times their
 * similarity, and the share of that it adds to confidence. Neighbours are related words ("loan" ~
 * "mortgage", but also "cheaper" ~ "expensive"), so only the closer ones, and only for a word the
 * topics never use. Measured on the blind set (docs/retrieval-eval.md): used for every word, they
 * cost the tuned set more than they gave the blind one.
 */
const NEIGHBOUR_DISCOUNT = 0.5;
const NEIGHBOUR_CONFIDENCE_SHARE = 0.4;
const NEIGHBOUR_MIN_SIMILARITY = 0.65;

/** What a filler word ("need", "today") weighs next to a content word, in score and confidence. */
const FILLER_WEIGHT = 0.25;

interface QueryTerm {
  /**
   * Weight of the term in the confidence denominator; for a word the index does not know, NaN
   * (it weighs as an average known word) or 0 (filler: it does not count).
   */
  weight: number;
  /** Multiplies the term's score (filler words count less). */
  scale: number;
  /**
   * Indexed terms standing for it (one, exact, for a known term), each with its discount, and what
   * it adds to confidence when that is less (`cover`, the discount when absent).
   */
  candidates: Array<{ termId: number; discount: number; cover?: number }>;
}

const LATIN_WORD = /^[a-z]+$/;

/** A query term: a word, a joined pair of words, or a phrase (`parts`: its words as written). */
type AnalysedTerm = Term & { explained?: boolean; parts?: readonly string[] };

/**
 * Every indexed term of a text: its words' stems, then its phrases', so a topic that says "sign up"
 * meets a question saying "sign up" (more than one saying "sign") or "enrol" (through the thesaurus).
 */
function textTerms(text: string, surfaces: Map<string, string>): string[] {
  const clauses = tokeniseClauses(text);
  const out: string[] = [];
  for (const clause of clauses) stemsInto(clause, out, surfaces);
  stemsInto(hyphenJoined(text), out, surfaces);
  for (const match of findPhrases(clauses, thesaurus())) out.push(termStem(match.key));
  return out;
}

/** A built index as plain data, for a worker thread to build and post (topic-index-builder.ts). */
export interface TopicIndexParts {
  ids: readonly string[];
  names: readonly string[];
  bm25: Bm25Parts;
  fuzzy: FuzzyParts;
  fuzzyTerm: ReadonlyMap<string, number>;
}

/** The buffers of `parts` a postMessage can move instead of copying. */
export function transferablesOf(parts: TopicIndexParts): ArrayBuffer[] {
  const { bm25, fuzzy } = parts;
  return [
    bm25.idfs,
    bm25.offsets,
    bm25.docs,
    bm25.weights,
    fuzzy.buckets,
    fuzzy.entryHash,
    fuzzy.entryWord,
    fuzzy.entryNext,
  ].map((array) => array.buffer as ArrayBuffer);
}

/** Words per generation of each of a TopicIndex's memos (word-memo.ts). */
const WORD_MEMO_GENERATION = 1_000;

export class TopicIndex {
  private readonly scores: Float64Array;
  private readonly covered: Float64Array;
  private readonly stamp: Int32Array;
  private readonly termBest: Float64Array;
  private readonly termCover: Float64Array;
  /** Topics touched by the current query, then by the current query term (scratch, reused). */
  private readonly touched: Int32Array;
  private readonly termDocs: Int32Array;
  private stampCounter = 0;
  /**
   * What this index answered for a word before: its fuzzy neighbours, the corrections a phrase may
   * try, and how it resolves when known. Each depends on the word and this index alone, and
   * customers' words repeat (a Zipf law), so most of a query's words were met recently.
   */
  private readonly fuzzyMemo = new WordMemo<readonly FuzzyMatch[]>(WORD_MEMO_GENERATION);
  private readonly correctionsMemo = new WordMemo<readonly string[]>(WORD_MEMO_GENERATION);
  private readonly knownMemo = new WordMemo<QueryTerm | null>(WORD_MEMO_GENERATION);

  private constructor(
    private readonly ids: readonly string[],
    private readonly names: readonly string[],
    private readonly bm25: Bm25Index,
    private readonly fuzzy: FuzzyIndex,
    /** A fuzzy vocabulary word (surface form or stem) → the term id of its stem. */
    private readonly fuzzyTerm: ReadonlyMap<string, number>,
  ) {
    const n = ids.length;
    this.scores = new Float64Array(n);
    this.covered = new Float64Array(n);
    this.stamp = new Int32Array(n);
    this.termBest = new Float64Array(n);
    this.termCover = new Float64Array(n);
    this.touched = new Int32Array(n);
    this.termDocs = new Int32Array(n);
  }

  static build(topics: ReadonlyArray<IndexableTopic>): TopicIndex {
    thesaurus(); // read once per process, by a build rather than by a turn's search
    loadWordNeighbours();
    const active = topics.filter((t) => t.isActive);
    const surfaces = new Map<string, string>(); // surface → stem, for every word of the active topics
    const docs = active.map((t) => {
      const queries: string[] = [];
      for (const q of t.exampleQueries) for (const s of textTerms(q, surfaces)) queries.push(s);
      return [textTerms(t.name, surfaces), queries, textTerms(t.content, surfaces)];
    });
    const bm25 = Bm25Index.build(docs, { k1: DEFAULT_K1, fields: FIELDS });

    const fuzzyTerm = new Map<string, number>();
    for (const [surface, stem] of surfaces) {
      if (/\d/.test(surface)) continue;
      const id = bm25.termId(stem)!;
      fuzzyTerm.set(stem, id);
      if (!fuzzyTerm.has(surface)) fuzzyTerm.set(surface, id);
    }
    const fuzzy = FuzzyIndex.build(fuzzyTerm.keys());
    return new TopicIndex(
      active.map((t) => t.id),
      active.map((t) => t.name),
      bm25,
      fuzzy,
      fuzzyTerm,
    );
  }

  /** The index as plain data (see TopicIndexParts); `fromParts` gives it back. */
  parts(): TopicIndexParts {
    return {
      ids: this.ids,
      names: this.names,
      bm25: this.bm25.parts(),
      fuzzy: this.fuzzy.parts(),
      fuzzyTerm: this.fuzzyTerm,
    };
  }

  static fromParts(parts: TopicIndexParts): TopicIndex {
    thesaurus(); // this thread's copy, when the index was built on another
    loadWordNeighbours();
    return new TopicIndex(
      parts.ids,
      parts.names,
      Bm25Index.fromParts(parts.bm25),
      FuzzyIndex.fromParts(parts.fuzzy),
      parts.fuzzyTerm,
    );
  }

  /** Number of (active) topics indexed. */
  get size(): number {
    return this.ids.length;
  }

  /** Topics matching `query`, best first; empty when nothing matches. */
  search(query: string, limit = DEFAULT_LIMIT): SearchHit[] {
    if (this.ids.length === 0 || limit <= 0) return [];
    const terms = this.resolve(this.analyseQuery(query));
    const known = terms.filter((t) => t.candidates.length > 0);
    if (known.length === 0) return [];
    // Filler alone finds nothing. An unknown word weighs as much as an average known content word of
    // this query: it dilutes the match.
    const content = known.filter((t) => t.scale === 1 && t.weight > 0);
    if (content.length === 0) return [];
    const unknownWeight = content.reduce((sum, t) => sum + t.weight, 0) / content.length;
    let totalWeight = 0;
    for (const t of terms) totalWeight += Number.isNaN(t.weight) ? unknownWeight : t.weight;
    if (totalWeight <= 0) return [];

    const { scores, covered, stamp, termBest, termCover, touched, termDocs } = this;
    let touchedCount = 0;
    for (const term of known) {
      if (term.candidates.length === 1 && term.candidates[0].discount === 1 && term.scale === 1) {
        const id = term.candidates[0].termId;
        const w = this.bm25.idf(id);
        const { docs, weights } = this.bm25.postings(id);
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          if (scores[d] === 0 && covered[d] === 0) touched[touchedCount++] = d; // first met (a phrase may cover 0)
          scores[d] += w * weights[i];
          covered[d] += term.weight;
        }
        continue;
      }
      // Several candidates for one word: a topic counts the best of them once.
      const mark = ++this.stampCounter;
      let termCount = 0;
      for (const { termId, discount, cover = discount } of term.candidates) {
        const w = this.bm25.idf(termId) * discount * term.scale;
        const { docs, weights } = this.bm25.postings(termId);
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          const s = w * weights[i];
          if (stamp[d] !== mark) {
            stamp[d] = mark;
            termDocs[termCount++] = d;
            termBest[d] = s;
            termCover[d] = cover;
          } else {
            if (s > termBest[d]) termBest[d] = s;
            if (cover > termCover[d]) termCover[d] = cover;
          }
        }
      }
      for (let i = 0; i < termCount; i++) {
        const d = termDocs[i];
        if (scores[d] === 0 && covered[d] === 0) touched[touchedCount++] = d; // first met (a phrase may cover 0)
        scores[d] += termBest[d];
        covered[d] += term.weight * termCover[d];
      }
    }

    // Top `limit` by score (ties: earlier topic first), by insertion into a short sorted list.
    const top: number[] = [];
    for (let i = 0; i < touchedCount; i++) {
      const d = touched[i];
      const s = scores[d];
      if (top.length === limit && !(s > scores[top[top.length - 1]])) continue;
      let at = top.length;
      while (at > 0 && (s > scores[top[at - 1]] || (s === scores[top[at - 1]] && d < top[at - 1]))) at--;
      top.splice(at, 0, d);
      if (top.length > limit) top.pop();
    }
    const hits = top.map((d) => ({
      topicId: this.ids[d],
      name: this.names[d],
      score: scores[d],
      confidence: Math.min(1, covered[d] / totalWeight),
    }));
    for (let i = 0; i < touchedCount; i++) {
      const d = touched[i];
      scores[d] = 0;
      covered[d] = 0;
    }
    if (this.stampCounter > 0x3fffffff) {
      this.stamp.fill(0);
      this.stampCounter = 0;
    }
    return hits;
  }

  /**
   * The query's terms (text.ts `analyse`), plus two neighbouring words (no punctuation between) written
   * as one when the index or the synonyms know the joined word ("sign up" → "signup", "high chairs" →
   * "highchairs"); the parts it explains then do not count as unknown words. Then the thesaurus'
   * phrases among adjacent words, stopwords included ("sign up", "log in"), a misspelled word of one
   * corrected from the index's words ("chek in").
   */
  private analyseQuery(query: string): AnalysedTerm[] {
    const clauses = tokeniseClauses(query);
    const words = clauses.flat(); // text.ts `tokenise`
    const terms: AnalysedTerm[] = [];
    for (const surface of words) if (!isStopword(surface)) terms.push({ surface, stem: stem(surface) });
    for (const clause of clauses)
      for (let i = 0; i + 1 < clause.length; i++) {
        const [a, b] = [clause[i], clause[i + 1]];
        if (!LATIN_WORD.test(a) || !LATIN_WORD.test(b)) continue;
        const surface = a + b;
        const joined = stem(surface);
        if (this.bm25.termId(joined) === undefined && !SYNONYMS.has(joined)) continue;
        for (const t of terms) if (t.surface === a || t.surface === b) t.explained = true;
        terms.push({ surface, stem: joined });
      }
    const corrections = (word: string) => this.correctionsMemo.get(word, () => this.corrections(word));
    for (const { key, words: parts } of findPhrases(clauses, thesaurus(), corrections))
      terms.push({ surface: key, stem: termStem(key), parts });
    return terms;
  }

  /** Index words a query word unknown to the index and to the thesaurus may be a misspelling of. */
  private corrections(word: string): string[] {
    if (word.length < 4 || this.bm25.termId(stem(word)) !== undefined || thesaurus().knows(word)) return [];
    return [...this.fuzzyMatches(word)].sort((a, b) => a.distance - b.distance).map((match) => match.word);
  }

  /** The query's distinct terms, each mapped to indexed terms: exactly, or through the fuzzy index. */
  private resolve(analysed: AnalysedTerm[]): QueryTerm[] {
    const out: QueryTerm[] = [];
    const seen = new Set<string>();
    // Phrases first: one the index reaches explains its words, which then do not count as unknown.
    const phrases: Array<{ term: QueryTerm; parts: readonly string[] }> = [];
    const explainedByPhrase = new Set<string>();
    for (const term of analysed) {
      if (!term.parts || seen.has(term.stem)) continue;
      seen.add(term.stem);
      const resolved = this.resolveKnown(term.surface, term.stem);
      if (resolved === null) continue;
      out.push(resolved);
      phrases.push({ term: resolved, parts: term.parts });
      for (const part of term.parts) explainedByPhrase.add(part);
    }
    const accounted = new Set<string>(); // words the index reaches, or a joined pair explains
    for (const { surface, stem, explained, parts } of analysed) {
      if (parts || seen.has(stem)) continue;
      seen.add(stem);
      if (explained) accounted.add(surface);
      const known = this.resolveKnown(surface, stem);
      if (known !== null) {
        out.push(known);
        accounted.add(surface);
        continue;
      }
      const halves = this.splitCompound(surface);
      if (halves) {
        for (const id of halves)
          out.push({ weight: this.bm25.idf(id), scale: 1, candidates: [{ termId: id, discount: 1 }] });
        accounted.add(surface);
        continue;
      }
      const fuzzy = this.resolveFuzzy(surface, stem);
      const filler = FILLER.has(stem);
      const isExplained = explained || explainedByPhrase.has(surface);
      if (fuzzy.candidates.length === 0) fuzzy.weight = filler || isExplained || /^\d+$/.test(surface) ? 0 : NaN;
      else accounted.add(surface);
      out.push(fuzzy);
    }
    // A phrase is another reading of its words, not more words: it counts in confidence only when it
    // alone accounts for one of them ("sign" of "sign up"); otherwise it only adds to the score.
    for (const { term, parts } of phrases)
      if (parts.every((part) => isStopword(part) || accounted.has(part))) term.weight = 0;
    return out;
  }

  /** A word or phrase the index knows, or reaches through synonyms or the thesaurus; null otherwise. */
  private resolveKnown(surface: string, stem: string): QueryTerm | null {
    // remembered by surface alone: `stem` is always the surface's own (termStem). A fresh term each
    // time: resolve sets a phrase's weight on the one it gets.
    const known = this.knownMemo.get(surface, () => this.resolveKnownNow(surface, stem));
    return known && { ...known };
  }

  private resolveKnownNow(surface: string, stem: string): QueryTerm | null {
    const scale = FILLER.has(stem) ? FILLER_WEIGHT : 1;
    const candidates: QueryTerm['candidates'] = [];
    const exact = this.bm25.termId(stem);
    if (exact !== undefined) candidates.push({ termId: exact, discount: 1 });
    for (const synonym of SYNONYMS.get(stem) ?? []) {
      const id = this.bm25.termId(synonym);
      if (id !== undefined && id !== exact) candidates.push({ termId: id, discount: SYNONYM_DISCOUNT });
    }
    for (const related of thesaurus().relatedStems(surface)) {
      const id = this.bm25.termId(related.stem);
      if (id === undefined || candidates.some((c) => c.termId === id)) continue;
      const discount = THESAURUS_DISCOUNT[related.relation];
      candidates.push({ termId: id, discount, cover: discount * THESAURUS_CONFIDENCE_SHARE });
    }
    // a word one edit from an indexed one is read as that word misspelled (resolveFuzzy), not
    // through its neighbours: "cancelation" is in GloVe, and near "cancellation" only by spelling
    if (exact === undefined && !FILLER.has(stem) && this.fuzzyMatches(surface).length === 0)
      for (const near of neighboursOf(surface)) {
        if (near.similarity < NEIGHBOUR_MIN_SIMILARITY) break; // most similar first
        const id = this.bm25.termId(termStem(near.word));
        if (id === undefined || candidates.some((c) => c.termId === id)) continue;
        const discount = NEIGHBOUR_DISCOUNT * near.similarity;
        candidates.push({ termId: id, discount, cover: discount * NEIGHBOUR_CONFIDENCE_SHARE });
      }
    if (candidates.length === 0) return null;
    const weight =
      exact !== undefined ? this.bm25.idf(exact) : Math.max(...candidates.map((c) => this.bm25.idf(c.termId)));
    return { weight: weight * scale, scale, candidates };
  }

  /** The fuzzy index's words near `word` (phrases and resolve both ask). */
  private fuzzyMatches(word: string): readonly FuzzyMatch[] {
    return this.fuzzyMemo.get(word, () => this.fuzzy.lookup(word, maxDistanceFor(word.length)));
  }

  /** An unknown word written as two known ones run together ("highchairs"): their term ids. */
  private splitCompound(surface: string): [number, number] | null {
    if (surface.length < 7 || !/^[a-z]+$/.test(surface)) return null;
    for (let i = 3; i <= surface.length - 3; i++) {
      const head = this.bm25.termId(stem(surface.slice(0, i)));
      if (head === undefined) continue;
      const tail = this.bm25.termId(stem(surface.slice(i)));
      if (tail !== undefined) return [head, tail];
    }
    return null;
  }

  private resolveFuzzy(surface: string, stem: string): QueryTerm {
    const none: QueryTerm = { weight: 0, scale: 1, candidates: [] };
    if (/\d/.test(surface)) return none;
    const best = new Map<number, number>(); // term id → smallest distance
    const consider = (word: string) => {
      for (const { word: match, distance } of this.fuzzyMatches(word)) {
        const id = this.fuzzyTerm.get(match)!;
        const was = best.get(id);
        if (was === undefined || distance < was) best.set(id, distance);
      }
    };
    consider(surface);
    if (stem !== surface) consider(stem);
    if (best.size === 0) return none;
    let nearest = Infinity;
    for (const distance of best.values()) nearest = Math.min(nearest, distance);
    const ids = [...best].filter(([, distance]) => distance === nearest).map(([id]) => id);
    // Ties: the more frequent word is the likelier intended one.
    ids.sort((a, b) => this.bm25.docFreq(b) - this.bm25.docFreq(a) || a - b);
    const chosen = ids.slice(0, MAX_FUZZY_CANDIDATES);
    const discount = fuzzyDiscount(nearest, surface.length);
    const weight = Math.max(...chosen.map((id) => this.bm25.idf(id)));
    return { weight, scale: 1, candidates: chosen.map((termId) => ({ termId, discount })) };
  }
}
