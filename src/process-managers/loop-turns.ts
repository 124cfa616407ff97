/**
 * Hands out turns of the event loop one at a time: each call resolves on a later turn than the
 * call before it, after the loop has polled for I/O in between. A batch's concurrent handlers
 * that wait for a turn each start alone, so requests that arrived meanwhile are answered between
 * them instead of queueing behind the synchronous starts of the whole batch.
 */
export function loopTurns(): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => (last = last.then(nextTurn));
}

// setImmediate: queued from a check phase it runs on the next turn, after that turn's I/O poll
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
