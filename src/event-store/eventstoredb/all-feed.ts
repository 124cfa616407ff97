import type { RecordedEvent } from '../event-store.port';
import type { Position } from '../position';

/**
 * The narrow view of the client the subscription loop needs: a catch-up subscription to `$all`
 * strictly after a position (system events already excluded by a server-side filter), read in
 * pulls so nothing piles up while the handler works. The real one is a ReadableFeed over the
 * client's subscription stream; the unit tests use a fake, since no server can run there.
 */
export interface AllFeedSource {
  open(after: Position): AllFeed;
}

export interface AllFeed {
  /** Up to `max` events, waiting for at least one. Rejects with FeedDroppedError when the connection goes. */
  nextBatch(max: number): Promise<RecordedEvent[]>;
  /** Ends the subscription on the server; a pending nextBatch rejects with FeedClosedError. Idempotent. */
  close(): Promise<void>;
}

/** The server or the network ended the subscription: resubscribe. */
export class FeedDroppedError extends Error {
  constructor(readonly cause: unknown) {
    super(`the $all subscription dropped: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'FeedDroppedError';
  }
}

/** This side closed the feed. */
export class FeedClosedError extends Error {
  constructor() {
    super('the $all subscription was closed');
    this.name = 'FeedClosedError';
  }
}
