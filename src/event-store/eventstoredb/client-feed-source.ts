import type { AllStreamResolvedEvent } from '@kurrent/kurrentdb-client';
import type { AllFeedSource } from './all-feed';
import { toReadPosition } from './client-position';
import type { EsdbClient } from './esdb-client';
import { toRecordedEvent } from './event-conversion';
import { ReadableFeed } from './readable-feed';
import type { Scope } from './scope';

/**
 * The server sends a checkpoint after this many search windows of filtered-out events. Nothing
 * here uses checkpoints (resuming goes by the last handled event), so they are kept rare.
 */
const CHECKPOINT_INTERVAL = 1000;

/** Events the client's stream buffers (on each side of its Transform) before gRPC flow control pauses the server. */
const BUFFERED_EVENTS = 512;

/** `$all` subscriptions of the real client, filtered on the server, as AllFeeds. */
export function clientFeedSource(client: EsdbClient, scope: Scope): AllFeedSource {
  return {
    open(after) {
      // The client subscribes strictly after fromPosition (a read would include it).
      const stream = client.subscribeToAll(
        { fromPosition: toReadPosition(after), filter: scope.filter(CHECKPOINT_INTERVAL) },
        { highWaterMark: BUFFERED_EVENTS },
      );
      return new ReadableFeed<AllStreamResolvedEvent>(
        stream,
        (resolved) =>
          resolved.event ? toRecordedEvent(resolved.event, scope.fromServer(resolved.event.streamId)) : null,
        () => stream.unsubscribe(),
      );
    },
  };
}
