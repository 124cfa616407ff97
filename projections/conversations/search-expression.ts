import { editDistance, maxDistanceFor } from '../../src/platform/text/fuzzy';
import { isStopword, stem, tokenise } from '../../src/platform/text/text';

/** A word as an FTS5 string: the index's own tokenizer (Porter, accents folded) then applies to it. */
const quoted = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * `query_type=transcript`: the words every matching turn holds (after stemming, as the index
 * stores words). Each backend turns them into its own query.
 */
export function transcriptWords(query: string): string[] {
  return tokenise(query);
}

/**
 * `query_type=transcript` on FTS5: every word of the query in the same turn, on the user's side,
 * the agent's, or either. Null when the query has no word.
 */
export function transcriptMatch(query: string, turnType: 'user' | 'agent' | null): string | null {
  const words = transcriptWords(query);
  if (words.length === 0) return null;
  const all = words.map(quoted).join(' AND ');
  if (turnType === 'user') return `user_input : (${all})`;
  if (turnType === 'agent') return `agent_response : (${all})`;
  return all;
}

/** The meaningful words of a semantic query, each with the root its near spellings are sought by. */
function meaningful(query: string): Array<{ word: string; root: string; max: number }> {
  return tokenise(query)
    .filter((w) => !isStopword(w))
    .map((word) => {
      const root = stem(word);
      return { word, root, max: root.length < 2 ? 0 : maxDistanceFor(root.length) };
    });
}

/** The indexed-term prefixes a semantic query's fuzzy expansion reads (fetch them before semanticAlternatives). */
export function fuzzyPrefixes(query: string): string[] {
  return [
    ...new Set(
      meaningful(query)
        .filter((m) => m.max > 0)
        .map((m) => m.root.slice(0, 2)),
    ),
  ];
}

/**
 * `query_type=semantic`, the embedded default (contract §8): any meaningful word of the query, in
 * any inflection (stemming) or near spelling (indexed terms within the retrieval's edit distance).
 * In the order a query lists them (each is one phrase of the ranking); null when none.
 */
export function semanticAlternatives(query: string, vocabulary: (prefix: string) => string[]): string[] | null {
  const words = meaningful(query);
  if (words.length === 0) return null;
  const alternatives = new Set<string>();
  for (const { word, root, max } of words) {
    alternatives.add(word);
    if (max === 0) continue;
    for (const term of vocabulary(root.slice(0, 2))) {
      if (Math.abs(term.length - root.length) <= max && editDistance(term, root, max) <= max) alternatives.add(term);
    }
  }
  return [...alternatives];
}

/** The semantic alternatives as an FTS5 query, ranked by bm25 so turns sharing more and rarer words come first. */
export function semanticMatch(query: string, vocabulary: (prefix: string) => string[]): string | null {
  const alternatives = semanticAlternatives(query, vocabulary);
  return alternatives === null ? null : alternatives.map(quoted).join(' OR ');
}
