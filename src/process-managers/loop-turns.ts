/**
 * Hands out turns of the event loop, `perTurn` callers to a turn: each group of calls resolves on
 * a later turn than the group before it, after the loop has polled for I/O in between. A batch's
 * concurrent handlers that wait for a turn start a few at a time, so requests that arrived
 * meanwhile are answered between the groups instead of queueing behind the synchronous starts of
 * the whole batch, while the handlers of one group still reach the writer's group commit together.
 */
export function loopTurns(perTurn = 1): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  let seats = 0;
  let served = true;
  return () => {
    // a group whose turn has already come is closed: a late caller waits for a turn of its own
    if (seats === 0 || served) {
      served = false;
      seats = perTurn;
      last = last.then(nextTurn).then(() => {
        served = true;
      });
    }
    seats--;
    return last;
  };
}

// setImmediate: queued from a check phase it runs on the next turn, after that turn's I/O poll
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
