import type { Clock } from './clock';

/** setTimeout's longest delay; a later deadline re-arms when it fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** A timer that fired before the platform clock got there (a manual clock, rounding) waits at least this long again. */
const MIN_REARM_MS = 50;

/**
 * Calls `fn` once, when the platform clock reaches `atMs`: by a wall-clock timer, and at once after
 * a manual clock's jump past it (PARLEY_TEST_CLOCK). Returns a cancel; calling it after `fn` ran
 * does nothing. A deadline already past runs `fn` on the next tick, not inside this call.
 */
export function atDeadline(clock: Clock, atMs: number, fn: () => void): () => void {
  let timer: NodeJS.Timeout | null = null;
  let done = false;
  const cancel = () => {
    done = true;
    if (timer) clearTimeout(timer);
    timer = null;
    unsubscribe();
  };
  const arm = (minMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, Math.min(MAX_DELAY_MS, Math.max(minMs, atMs - clock.nowMs())));
    timer.unref();
  };
  function check() {
    if (done) return;
    if (clock.nowMs() < atMs) return arm(MIN_REARM_MS);
    cancel();
    fn();
  }
  const unsubscribe = clock.onAdvance(check);
  arm(0);
  return cancel;
}
