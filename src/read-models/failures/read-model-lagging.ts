import { DomainError } from '../../platform/errors/domain-error';

/** A read-your-writes wait ran out: the write happened, the read model has not applied it yet. */
export function readModelLagging(): DomainError {
  return new DomainError(
    'READ_MODEL_LAGGING',
    'the change was saved but is not visible yet; retry the read shortly',
    503,
    null,
    [],
    { 'retry-after': '1' },
  );
}

/**
 * Whether a failure is only a read model still catching up (a rebuild, a burst of writes): work
 * that retries later is expected to see it pass, so it is worth a note in the log, not an error.
 */
export function isReadModelLagging(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'READ_MODEL_LAGGING';
}
