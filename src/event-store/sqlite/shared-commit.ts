import type { AppendOutcome, AppendRequest } from './batch-writer';

/**
 * Writes several batches in one transaction (one commit, one fsync) and hands each its own
 * outcomes, in order. The appends are applied one after another as if each batch had committed
 * alone, so every expected revision is checked against what the batches before it wrote. Throws
 * when the transaction fails: then none of the batches is stored.
 */
export function writeShared(
  writer: { write(batch: AppendRequest[]): AppendOutcome[] },
  batches: readonly AppendRequest[][],
): AppendOutcome[][] {
  if (batches.length === 1) return [writer.write(batches[0])];
  const outcomes = writer.write(batches.flat());
  let at = 0;
  return batches.map((batch) => outcomes.slice(at, (at += batch.length)));
}
