import type { Position } from '../../src/event-store/position';
import { DomainError } from '../../src/platform/errors/domain-error';
import type { ReadModels } from '../../src/read-models/read-models.service';

/** Longer than any catch-up measured here (92 s after seeding 300,000 conversations on a slow machine). */
const PATIENCE_MS = 20 * 60_000;
/**
 * The slowest rate a catch-up of `events` is given before it fails: the 1M dataset's 14.3M events
 * took 818 s at 17,500 events/s on a quiet machine, and more than 20 minutes beside other work.
 */
const SLOWEST_EVENTS_PER_S = 2_000;

/**
 * Waits until every named read model has applied the log up to `head`: ReadModels.waitFor gives
 * up after its request-sized timeout (503 READ_MODEL_LAGGING), and a catch-up after seeding
 * hundreds of thousands of conversations takes longer than that. Bounded all the same: a read
 * model that never catches up fails the case instead of hanging the bench.
 */
export async function caughtUp(readModels: ReadModels, head: Position, names: string[], events = 0): Promise<void> {
  const deadline = Date.now() + Math.max(PATIENCE_MS, (events / SLOWEST_EVENTS_PER_S) * 1000);
  for (;;) {
    try {
      return await readModels.waitFor(head, names);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'READ_MODEL_LAGGING') || Date.now() > deadline) throw error;
    }
  }
}
