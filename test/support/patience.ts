/**
 * How much longer than its nominal bound a test waits for something that should happen. A wait
 * that ends when its condition holds costs nothing on a fast machine, and the bounds were chosen
 * on one; CI's machines have run the same suite three times slower (a child app's start: 15-20 s
 * against 5), and a bound that only a slow machine crosses is a flaky test, not a found bug.
 * Waits that something does NOT happen (noMoreThan and the like) keep their own short windows.
 * PARLEY_TEST_PATIENCE overrides the factor (1 to see the nominal bounds).
 */
const PATIENCE = Number(process.env.PARLEY_TEST_PATIENCE ?? 5);

/** A positive wait's bound on this machine. */
export const patient = (nominalMs: number): number => nominalMs * PATIENCE;

/**
 * A test that starts app processes one after another (kill -9, restart, two at once): each start
 * loads and compiles the whole app, a minute on a loaded CI machine running two test files at once.
 */
export const APP_PROCESS_TEST_TIMEOUT_MS = patient(120_000);

/**
 * An app's settings for such a machine, under whatever the test sets itself: a command's response
 * waits longer for its read models before 503 READ_MODEL_LAGGING (the product's default is 5 s),
 * and idle keep-alive connections stay open longer than the product's 5 s.
 */
export const SLOW_MACHINE_ENV: Record<string, string> = {
  READ_YOUR_WRITES_TIMEOUT_MS: String(Math.min(60_000, patient(5000))),
  // fetch reuses an idle keep-alive connection up to a second before the server's 5 s timeout; on
  // a loaded machine late timers close that window and a request meets the close (ECONNRESET),
  // which fetch does not retry. test/edge/timeouts.e2e.spec.ts tests the timeout itself.
  HTTP_KEEPALIVE_TIMEOUT_S: '120',
};
