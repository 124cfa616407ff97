import { PassThrough } from 'node:stream';
import { newTestEvent } from '../event-store.contract';
import type { RecordedEvent } from '../event-store.port';
import { positionOf } from '../position';
import { FeedClosedError, FeedDroppedError } from './all-feed';
import { ReadableFeed } from './readable-feed';

function recorded(n: number): RecordedEvent {
  const e = newTestEvent('T', { n });
  return { ...e, streamId: 's', revision: BigInt(n), position: positionOf(BigInt(n + 1)) };
}

function feedOver(highWaterMark = 4) {
  const stream = new PassThrough({ objectMode: true, highWaterMark });
  let cancelled = 0;
  const feed = new ReadableFeed<{ event?: RecordedEvent }>(
    stream,
    (raw) => raw.event ?? null,
    async () => {
      cancelled++;
    },
  );
  return { stream, feed, cancelled: () => cancelled };
}

describe('ReadableFeed (over a stream like the client subscription)', () => {
  it('hands over what is buffered, up to max, without waiting to fill a batch', async () => {
    const { stream, feed } = feedOver(16);
    for (let i = 0; i < 5; i++) stream.write({ event: recorded(i) });
    expect((await feed.nextBatch(3)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    expect((await feed.nextBatch(3)).map((e) => e.revision)).toEqual([3n, 4n]);
    const later = feed.nextBatch(3);
    setTimeout(() => stream.write({ event: recorded(5) }), 5);
    expect((await later).map((e) => e.revision)).toEqual([5n]);
  });

  it('skips items that carry no event', async () => {
    const { stream, feed } = feedOver();
    stream.write({});
    stream.write({ event: recorded(0) });
    expect((await feed.nextBatch(10)).map((e) => e.revision)).toEqual([0n]);
  });

  it('back-pressure: an unread feed stops taking from upstream once its buffer is full', async () => {
    const { stream, feed } = feedOver(4);
    let accepted = 0;
    for (let i = 0; i < 20; i++) if (stream.write({ event: recorded(i) })) accepted++;
    // write() returning false is what makes a pipe (the client's gRPC call) pause.
    expect(accepted).toBeLessThan(20);
    expect(stream.writableNeedDrain).toBe(true);
    await feed.nextBatch(100);
    await feed.close();
  });

  it('delivers what arrived before a drop, then reports the drop', async () => {
    const { stream, feed } = feedOver();
    stream.write({ event: recorded(0) });
    await new Promise((resolve) => setImmediate(resolve));
    stream.emit('error', new Error('connection reset'));
    expect((await feed.nextBatch(10)).map((e) => e.revision)).toEqual([0n]);
    const dropped = await feed.nextBatch(10).catch((error: unknown) => error);
    expect(dropped).toBeInstanceOf(FeedDroppedError);
    expect((dropped as FeedDroppedError).cause).toEqual(new Error('connection reset'));
  });

  it('an ended stream is a drop too (the server ended the subscription)', async () => {
    const { stream, feed } = feedOver();
    const pending = feed.nextBatch(10);
    stream.end();
    await expect(pending).rejects.toBeInstanceOf(FeedDroppedError);
  });

  it('close() ends a pending pull, cancels upstream once, and is idempotent', async () => {
    const { feed, cancelled } = feedOver();
    const pending = feed.nextBatch(10);
    await Promise.all([feed.close(), feed.close()]);
    await expect(pending).rejects.toBeInstanceOf(FeedClosedError);
    await expect(feed.nextBatch(1)).rejects.toBeInstanceOf(FeedClosedError);
    expect(cancelled()).toBe(1);
  });
});
