/**
 * An in-memory stand-in for an EventStoreDB server behind the client, for tests only: no server
 * can run on this machine (no Docker, no package). It follows the server's documented behaviour
 * as far as the adapter relies on it; the contract run against a real server
 * (eventstoredb-event-store.int.spec.ts) is what proves those assumptions.
 *
 * - appends check the expected state and answer WrongExpectedVersionError with the current one;
 *   the server's best-effort idempotency is modelled (a repeat of the last append's ids succeeds
 *   without writing; ids stored but not as one append are refused as a conflict);
 * - `$all` positions: one append's events share the commit position and differ in prepare; the
 *   append result of several events reports the transaction's start (so the adapter must not
 *   take it for the last event's position);
 * - reads of a missing stream fail with StreamNotFoundError while iterating; `$all` reads
 *   include their start position, subscriptions start strictly after it;
 * - server-side filters (event type regex, stream name prefixes) and system events in the log.
 */
import { randomUUID } from 'node:crypto';
import { Readable, type ReadableOptions } from 'node:stream';
import {
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendResult,
  type AppendToStreamOptions,
  type Filter,
  type JSONEventData,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { compareClientPositions } from './client-position';
import type { AllSubscriptionStream, EsdbClient } from './esdb-client';

type Stored = RecordedEvent & { position: Position };

/** The server's state; several clients (one per store opened in a test) may share it. */
export class FakeServerState {
  readonly log: Stored[] = [];
  readonly streams = new Map<string, Stored[]>();
  private logPosition = 0n;
  private appends = 0;
  private readonly wakers = new Set<() => void>();

  constructor(private readonly systemEventEvery = 7) {
    this.write('$epoch-information', [
      { id: randomUUID(), contentType: 'application/json', type: '$epoch-information', data: {}, metadata: undefined },
    ]);
  }

  write(streamName: string, events: JSONEventData[]): Stored[] {
    const stream = this.streams.get(streamName) ?? [];
    this.streams.set(streamName, stream);
    const commit = this.logPosition + 128n;
    const written: Stored[] = [];
    let prepare = commit;
    for (const event of events) {
      const data = JSON.parse(JSON.stringify(event.data)) as RecordedEvent['data'];
      const metadata =
        event.metadata === undefined
          ? undefined
          : (JSON.parse(JSON.stringify(event.metadata)) as RecordedEvent['metadata']);
      const stored = {
        streamId: streamName,
        id: event.id,
        isJson: true,
        revision: BigInt(stream.length),
        type: event.type,
        created: new Date(),
        data,
        metadata,
        position: { commit, prepare },
      } as Stored;
      stream.push(stored);
      this.log.push(stored);
      written.push(stored);
      this.logPosition = prepare;
      prepare += 97n + BigInt(JSON.stringify(event.data).length % 31);
    }
    if (!streamName.startsWith('$') && ++this.appends % this.systemEventEvery === 0) {
      this.write(`$stats-127.0.0.1:2113`, [
        {
          id: randomUUID(),
          contentType: 'application/json',
          type: '$statsCollected',
          data: { appends: this.appends },
          metadata: undefined,
        },
      ]);
    }
    for (const wake of [...this.wakers]) wake();
    return written;
  }

  onWrite(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }
}

function passes(filter: Filter | undefined, event: Stored): boolean {
  if (!filter) return true;
  const subject = filter.filterOn === 'eventType' ? event.type : event.streamId;
  if ('prefixes' in filter) return filter.prefixes.some((prefix) => subject.startsWith(prefix));
  return new RegExp(filter.regex).test(subject);
}

/** Each event handed out is a copy, as the real client parses a fresh one per read. */
function copy(event: Stored): Stored {
  return {
    ...event,
    data: structuredClone(event.data),
    metadata: structuredClone(event.metadata),
    position: { ...event.position },
  } as Stored;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FakeKurrentClient implements EsdbClient {
  private disposed = false;
  private readonly subscriptions = new Set<Readable>();
  /** How many subscriptions were opened, to see resubscriptions. */
  subscribeCalls = 0;

  constructor(readonly server: FakeServerState = new FakeServerState()) {}

  async appendToStream(
    streamName: string,
    events: JSONEventData[],
    { streamState = 'any' }: AppendToStreamOptions,
  ): Promise<AppendResult> {
    await turn();
    this.assertOpen();
    const stream = this.server.streams.get(streamName) ?? [];
    const current = stream.length === 0 ? ('no_stream' as const) : BigInt(stream.length - 1);
    const conflict = () => new WrongExpectedVersionError(undefined, { streamName, expected: streamState, current });
    const ids = events.map((event) => event.id);
    const at = (start: number) => ids.every((id, i) => stream[start + i]?.id === id);

    // The server's idempotency check, as in its index committer.
    if (streamState === 'any' || streamState === 'stream_exists') {
      const first = stream.findIndex((event) => event.id === ids[0]);
      if (first !== -1) {
        if (!at(first)) throw conflict();
        return { success: true, nextExpectedRevision: BigInt(first + ids.length - 1), position: undefined };
      }
      if (streamState === 'stream_exists' && stream.length === 0) throw conflict();
    } else {
      const expected = streamState === 'no_stream' ? -1 : Number(streamState);
      if (expected < stream.length - 1) {
        if (at(expected + 1))
          return { success: true, nextExpectedRevision: BigInt(expected + ids.length), position: undefined };
        throw conflict();
      }
      if (expected > stream.length - 1) throw conflict();
    }
    const written = this.server.write(streamName, events);
    const last = written[written.length - 1];
    const reported =
      written.length === 1
        ? last.position
        : { commit: written[0].position.commit, prepare: written[0].position.prepare };
    return { success: true, nextExpectedRevision: last.revision, position: { ...reported } };
  }

  async *readStream(
    streamName: string,
    { direction = 'forwards', fromRevision = 'start', maxCount = Number.MAX_SAFE_INTEGER }: ReadStreamOptions = {},
  ): AsyncIterable<ResolvedEvent> {
    await turn();
    this.assertOpen();
    const stream = this.server.streams.get(streamName);
    if (!stream || stream.length === 0) throw new StreamNotFoundError(undefined, streamName);
    const last = stream.length - 1;
    let count = 0;
    if (direction === 'forwards') {
      for (
        let i = fromRevision === 'start' ? 0 : fromRevision === 'end' ? last + 1 : Number(fromRevision);
        i <= last && count < Number(maxCount);
        i++, count++
      )
        yield { event: copy(stream[i]) };
    } else {
      for (
        let i = fromRevision === 'end' ? last : fromRevision === 'start' ? 0 : Math.min(last, Number(fromRevision));
        i >= 0 && count < Number(maxCount);
        i--, count++
      )
        yield { event: copy(stream[i]) };
    }
  }

  async *readAll({
    direction = 'forwards',
    fromPosition = 'start',
    maxCount = Number.MAX_SAFE_INTEGER,
    filter,
  }: ReadAllOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    await turn();
    this.assertOpen();
    const log = this.server.log;
    let count = 0;
    if (direction === 'forwards') {
      // A read includes an event at its start position.
      const from =
        fromPosition === 'start'
          ? 0
          : fromPosition === 'end'
            ? log.length
            : log.findIndex((e) => compareClientPositions(e.position, fromPosition) >= 0);
      for (let i = from === -1 ? log.length : from; i < log.length && count < Number(maxCount); i++) {
        if (!passes(filter, log[i])) continue;
        count++;
        yield { event: copy(log[i]) };
      }
    } else {
      const from =
        fromPosition === 'end'
          ? log.length - 1
          : fromPosition === 'start'
            ? -1
            : log.findLastIndex((e) => compareClientPositions(e.position, fromPosition) < 0);
      for (let i = from; i >= 0 && count < Number(maxCount); i--) {
        if (!passes(filter, log[i])) continue;
        count++;
        yield { event: copy(log[i]) };
      }
    }
  }

  subscribeToAll(
    { fromPosition = 'start', filter }: SubscribeToAllOptions = {},
    readableOptions: ReadableOptions = {},
  ): AllSubscriptionStream {
    this.assertOpen();
    this.subscribeCalls++;
    const server = this.server;
    // A subscription starts strictly after its position.
    let next =
      fromPosition === 'start'
        ? 0
        : fromPosition === 'end'
          ? server.log.length
          : server.log.findIndex((e) => compareClientPositions(e.position, fromPosition) > 0);
    if (next === -1) next = server.log.length;
    let stopListening: (() => void) | null = null;
    // Push what the log holds until the buffer is full (push returns false: the server is paused
    // until the consumer reads), else wait for the next write.
    const pump = () => {
      while (next < server.log.length) {
        const event = server.log[next++];
        if (passes(filter, event) && !stream.push({ event: copy(event) })) return;
      }
      stopListening ??= server.onWrite(() => {
        stopListening?.();
        stopListening = null;
        if (!stream.destroyed) pump();
      });
    };
    const stream = new Readable({
      ...readableOptions,
      objectMode: true,
      read: () => pump(),
      destroy(error, callback) {
        stopListening?.();
        callback(error);
      },
    }) as Readable & { unsubscribe(): Promise<void> };
    stream.unsubscribe = async () => {
      stream.destroy();
    };
    this.subscriptions.add(stream);
    stream.on('close', () => this.subscriptions.delete(stream));
    return stream;
  }

  /** What a server restart or a network failure does to every open subscription. */
  dropSubscriptions(): void {
    for (const stream of [...this.subscriptions]) stream.emit('error', new UnavailableError());
  }

  get openSubscriptions(): number {
    return [...this.subscriptions].filter((stream) => !stream.destroyed).length;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const stream of [...this.subscriptions]) stream.destroy();
  }

  private assertOpen(): void {
    if (this.disposed) throw new Error('the client is disposed');
  }
}
