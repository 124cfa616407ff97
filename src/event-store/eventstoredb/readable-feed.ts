import type { RecordedEvent } from '../event-store.port';
import { FeedClosedError, FeedDroppedError, type AllFeed } from './all-feed';

/**
 * What is used of a paused object-mode Readable. Spelled out as overloads because the client
 * types its subscription with overloads of its own that TypeScript will not match to Readable.
 */
export interface PullStream {
  read(): unknown;
  on(event: 'readable', listener: () => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/**
 * An AllFeed over the client's subscription, an object-mode Readable piped from the gRPC call.
 * Pulling with read() (never 'data' listeners) keeps the stream paused: once its small buffer is
 * full, the pipe stops reading the call and gRPC flow control holds the server back, so a slow
 * handler never makes events pile up in memory.
 */
export class ReadableFeed<Raw> implements AllFeed {
  private failure: unknown = undefined;
  private ended = false;
  private closed = false;
  private closing: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly readable: PullStream,
    /** An item of the stream as an event; null for items that are none (skipped). */
    private readonly convert: (raw: Raw) => RecordedEvent | null,
    /** Ends the subscription on the server. */
    private readonly cancel: () => Promise<void>,
  ) {
    readable.on('readable', this.notify);
    readable.on('end', () => this.finish());
    readable.on('close', () => this.finish());
    readable.on('error', (error: Error) => {
      this.failure ??= error;
      this.notify();
    });
  }

  async nextBatch(max: number): Promise<RecordedEvent[]> {
    for (;;) {
      if (this.closed) throw new FeedClosedError();
      const batch: RecordedEvent[] = [];
      while (batch.length < max) {
        const raw = this.readable.read() as Raw | null;
        if (raw === null) break;
        const event = this.convert(raw);
        if (event) batch.push(event);
      }
      // What arrived before a drop is still good: hand it over, report the drop on the next pull.
      if (batch.length > 0) return batch;
      if (this.failure !== undefined) throw new FeedDroppedError(this.failure);
      if (this.ended) throw new FeedDroppedError(new Error('the server ended the subscription'));
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.notify();
      try {
        await this.cancel();
      } catch {
        // Already gone on the server side: nothing left to end.
      } finally {
        this.readable.destroy();
      }
    })();
    return this.closing;
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private readonly notify = (): void => {
    this.wake?.();
  };
}
