import type { Position } from '../../src/event-store/position';
import { DomainError } from '../../src/platform/errors/domain-error';
import type { ReadModels } from '../../src/read-models/read-models.service';

/**
 * Waits, however long it takes, until every named read model has applied the log up to `head`:
 * ReadModels.waitFor gives up after its request-sized timeout (503 READ_MODEL_LAGGING), and a
 * catch-up after seeding hundreds of thousands of conversations takes longer than that.
 */
export async function caughtUp(readModels: ReadModels, head: Position, names: string[]): Promise<void> {
  for (;;) {
    try {
      return await readModels.waitFor(head, names);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'READ_MODEL_LAGGING')) throw error;
    }
  }
}
