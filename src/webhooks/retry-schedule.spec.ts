import { afterAttempt, attemptError, MAX_ATTEMPTS, retryDelayMs, verdictOf } from './retry-schedule';

const MIN = 60_000;

describe('webhook retry schedule', () => {
  it('retries 1 m, 5 m, 15 m, 1 h and 4 h after failures, six attempts in all', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelayMs)).toEqual([MIN, 5 * MIN, 15 * MIN, 60 * MIN, 240 * MIN, null]);
    expect(MAX_ATTEMPTS).toBe(6);
  });

  it.each([
    [{ statusCode: 200 }, 'delivered'],
    [{ statusCode: 204 }, 'delivered'],
    [{ statusCode: 299 }, 'delivered'],
    [{ statusCode: 408 }, 'retry'],
    [{ statusCode: 429 }, 'retry'],
    [{ statusCode: 500 }, 'retry'],
    [{ statusCode: 503 }, 'retry'],
    [{ error: 'timeout' }, 'retry'],
    [{ error: 'connect_failed' }, 'retry'],
    [{ error: 'tls_failed' }, 'retry'],
    [{ error: 'address_refused' }, 'final'],
    [{ error: 'invalid_request' }, 'final'],
    [{ statusCode: 400 }, 'final'],
    [{ statusCode: 401 }, 'final'],
    [{ statusCode: 404 }, 'final'],
    [{ statusCode: 410 }, 'final'],
    [{ statusCode: 301 }, 'final'],
  ] as const)('%p is %s', (result, verdict) => {
    expect(verdictOf(result)).toBe(verdict);
  });

  it('records classes as the attempt error, never socket text', () => {
    expect(attemptError({ statusCode: 204 })).toBeNull();
    expect(attemptError({ statusCode: 302 })).toBe('http_302');
    expect(attemptError({ statusCode: 503 })).toBe('http_503');
    expect(attemptError({ error: 'address_refused' })).toBe('address_refused');
  });

  it('schedules the next attempt from the failure, and fails after the last', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(afterAttempt(1, { statusCode: 500 }, now)).toEqual({ outcome: 'retrying', nextAttemptAtMs: now + MIN });
    expect(afterAttempt(5, { error: 'timeout' }, now)).toEqual({
      outcome: 'retrying',
      nextAttemptAtMs: now + 240 * MIN,
    });
    expect(afterAttempt(6, { statusCode: 500 }, now)).toEqual({ outcome: 'failed', nextAttemptAtMs: null });
    expect(afterAttempt(2, { statusCode: 400 }, now)).toEqual({ outcome: 'failed', nextAttemptAtMs: null });
    expect(afterAttempt(3, { statusCode: 202 }, now)).toEqual({ outcome: 'delivered', nextAttemptAtMs: null });
  });
});
