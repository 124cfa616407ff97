/** Matching turns a semantic search ranks at most (the newest ones). */
export const SEMANTIC_WINDOW = 2000;

/** How long a prefix's indexed terms (and, on PostgreSQL, the ranking's counts) are reused. */
export const VOCABULARY_TTL_MS = 5 * 60_000;

/** Conversations whose turns one query reads (a page of 100 is one query; 5,000 are ten). */
export const TURNS_PER_QUERY = 500;

/**
 * Up to this many matches, a sample is drawn exactly (a random order of them all, which costs
 * every match); past it, by probes at random points of the matches, each a single index seek.
 */
export const SMALL_SAMPLE_SET = 10_000;
