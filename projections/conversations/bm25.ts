/** What bm25 needs of the whole index: FTS5 keeps these in its structure record. */
export interface IndexTotals {
  /** rows (turns) in the index */
  rows: number;
  /** tokens in all rows */
  tokens: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * FTS5's bm25 (sqlite3.c fts5Bm25Function and fts5Bm25GetData), term for term and in the same
 * order of operations, so a PostgreSQL search ranks turns exactly as turn_fts.rank does: each
 * phrase's IDF from the rows holding it, its frequency in the row, the row's length against the
 * average. Negative, lower is better, as FTS5 answers it.
 */
export function bm25(totals: IndexTotals, phraseRows: number[], frequencies: number[], rowTokens: number): number {
  const avgdl = totals.tokens / totals.rows;
  const D = rowTokens;
  let score = 0.0;
  for (let i = 0; i < phraseRows.length; i++) {
    score +=
      idf(totals.rows, phraseRows[i]) *
      ((frequencies[i] * (K1 + 1.0)) / (frequencies[i] + K1 * (1 - B + (B * D) / avgdl)));
  }
  return -1.0 * score;
}

/** FTS5 floors the IDF of a phrase in half the rows or more at a tiny positive value. */
function idf(rows: number, rowsWithPhrase: number): number {
  const value = Math.log((rows - rowsWithPhrase + 0.5) / (rowsWithPhrase + 0.5));
  return value <= 0.0 ? 1e-6 : value;
}
