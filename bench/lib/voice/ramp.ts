/**
 * The concurrent-calls ramp: how many calls at once keep the caller's wait (end of utterance →
 * first agent audio) within the limit at p95. Pure, so the stop rule is tested on its own
 * (test/bench/voice-ramp.spec.ts).
 */

export interface LevelOutcome {
  /** calls placed at once */
  calls: number;
  /** each answered turn's wait, ms */
  waitsMs: number[];
  /** turns that got no answer (a call refused or dropped counts all of its turns) */
  unanswered: number;
}

/** Nearest-rank percentile (q in 0..1) of `values`; NaN for none. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1];
}

/**
 * The level's p95 wait, an unanswered turn counting as an endless wait: a level that drops calls
 * does not hold them, however fast the calls it kept were answered.
 */
export function p95Of(level: LevelOutcome): number {
  const waits = [...level.waitsMs, ...Array.from({ length: level.unanswered }, () => Infinity)];
  return waits.length === 0 ? Infinity : percentile(waits, 0.95);
}

export const holds = (level: LevelOutcome, limitMs: number): boolean => p95Of(level) <= limitMs;

/**
 * The next number of calls to place, or null to stop: the steps in order, stopping after the first
 * level that does not hold (a higher one would only be slower, and a bounded run matters more on a
 * shared machine than a second chance).
 */
export function nextLevel(done: readonly LevelOutcome[], steps: readonly number[], limitMs: number): number | null {
  if (done.some((level) => !holds(level, limitMs))) return null;
  return steps[done.length] ?? null;
}

/** The largest number of calls whose level held (0 when not even one call did). */
export function callsHeld(done: readonly LevelOutcome[], limitMs: number): number {
  return done.filter((level) => holds(level, limitMs)).reduce((most, level) => Math.max(most, level.calls), 0);
}
