import { normalise } from '../platform/text/text';
import { DomainError } from '../platform/errors/domain-error';

/** What a topic's example queries may hold, as the topics routes take them (dto/agent.dto.ts). */
export const MAX_EXAMPLE_QUERIES = 100;
export const MAX_EXAMPLE_QUERY_LENGTH = 1000;

/**
 * The words of a query, for comparing: lower case, accents folded, apostrophes dropped, any run of
 * punctuation, symbols and spaces made one space. "Can I get my MONEY back?" and "can i get my
 * money back" (the analytics' unanswered text) are the same words.
 */
function wordsOf(query: string): string {
  return normalise(query)
    .replace(/['’`]/g, '')
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
}

/** Whether a topic already has these words as an example query. */
function hasExampleQuery(queries: readonly string[], query: string): boolean {
  const words = wordsOf(query);
  return queries.some((q) => wordsOf(q) === words);
}

/**
 * The example queries with `query` appended, or null when they already hold its words: the one
 * rule of adding a query to a topic (agent.decider.ts `AddExampleQuery`), refusing (422) what the
 * topics routes would not store.
 */
export function withExampleQuery(queries: readonly string[], query: string): string[] | null {
  const text = query.trim();
  if (wordsOf(text) === '')
    throw new DomainError('EXAMPLE_QUERY_EMPTY', 'the example query has no words (only spaces or punctuation)', 422);
  if (text.length > MAX_EXAMPLE_QUERY_LENGTH)
    throw new DomainError(
      'EXAMPLE_QUERY_TOO_LONG',
      `an example query is at most ${MAX_EXAMPLE_QUERY_LENGTH} characters; this one has ${text.length}`,
      422,
    );
  if (hasExampleQuery(queries, text)) return null;
  if (queries.length >= MAX_EXAMPLE_QUERIES)
    throw new DomainError(
      'TOO_MANY_EXAMPLE_QUERIES',
      `the topic already has ${MAX_EXAMPLE_QUERIES} example queries, the most a topic holds; remove one first`,
      422,
    );
  return [...queries, text];
}
