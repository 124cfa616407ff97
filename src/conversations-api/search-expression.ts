import { editDistance, maxDistanceFor } from '../runtime/retrieval/fuzzy';
import { isStopword, stem, tokenise } from '../runtime/retrieval/text';

/** A word as an FTS5 string: the index's own tokenizer (Porter, accents folded) then applies to it. */
const quoted = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * `query_type=transcript`: every word of the query in the same turn (after stemming, as the index
 * stores words), on the user's side, the agent's, or either. Null when the query has no word.
 */
export function transcriptMatch(query: string, turnType: 'user' | 'agent' | null): string | null {
  const words = tokenise(query);
  if (words.length === 0) return null;
  const all = words.map(quoted).join(' AND ');
  if (turnType === 'user') return `user_input : (${all})`;
  if (turnType === 'agent') return `agent_response : (${all})`;
  return all;
}

/**
 * `query_type=semantic`, the embedded default (contract §8): any meaningful word of the query, in
 * any inflection (stemming) or near spelling (indexed terms within the retrieval's edit distance),
 * ranked by bm25, so turns sharing more and rarer words with the query come first.
 */
export function semanticMatch(query: string, vocabulary: (prefix: string) => string[]): string | null {
  const words = tokenise(query).filter((w) => !isStopword(w));
  if (words.length === 0) return null;
  const alternatives = new Set<string>();
  for (const word of words) {
    alternatives.add(quoted(word));
    const root = stem(word);
    const max = maxDistanceFor(root.length);
    if (max === 0 || root.length < 2) continue;
    for (const term of vocabulary(root.slice(0, 2))) {
      if (Math.abs(term.length - root.length) <= max && editDistance(term, root, max) <= max) alternatives.add(quoted(term));
    }
  }
  return [...alternatives].join(' OR ');
}
