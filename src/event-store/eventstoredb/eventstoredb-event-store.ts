import {
  KurrentDBClient,
  type AppendResult as ClientAppendResult,
  type RecordedEvent as ClientRecordedEvent,
} from '@kurrent/kurrentdb-client';
import {
  EventStoreClosedError,
  IdempotencyMismatchError,
  WrongExpectedRevisionError,
  expectedRevisionMatches,
} from '../errors';
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamRevision,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { START, comparePositions, type Position } from '../position';
import type { BackoffPolicy } from './backoff';
import { clientFeedSource } from './client-feed-source';
import { isKnownPosition, toPortPosition, toReadPosition } from './client-position';
import { isStreamNotFound, isWrongExpectedVersion, toWrongExpectedRevision } from './error-translation';
import type { EsdbClient } from './esdb-client';
import { MissingPositionError, canonicalId, toEventData, toRecordedEvent } from './event-conversion';
import { toStreamState } from './expected-revision';
import { ResubscribingSubscription, type SubscriptionLogger } from './resubscribing-subscription';
import { judgeAppend } from './retry-check';
import { scopeOf, type Scope } from './scope';
import { NOTHING_KNOWN, StreamIdIndex, type KnownIds } from './stream-ids';
import { isSystemEvent } from './system-events';

export interface EventStoreDbOptions {
  logger: SubscriptionLogger;
  /** Prefix of every stream this store touches; `$all` shows only those (test runs on a shared server). */
  namespace?: string;
  /**
   * With a namespace: a position of `$all` before which none of its events lie (the log's end
   * when the namespace was new). Reads of `$all` start there instead of scanning a shared
   * server's whole log for a prefix that is not in it.
   */
  floor?: Position;
  backoff?: BackoffPolicy;
}

/**
 * Looking again after a conflict settles almost every append at the second try; more tries only
 * happen while other writers keep moving the stream between the look and the write.
 */
const MAX_APPEND_ATTEMPTS = 5;
/** Events read per look backwards from the end of `$all` for the head. */
const HEAD_WINDOW = 32;
/** countAfter counts exactly below this many events, and answers null from there. */
const COUNT_WINDOW = 100;

/**
 * The EventStore port on EventStoreDB / KurrentDB. Positions are `$all` positions; checkpoints
 * stay in the read models' database. What the server does not give the way the port promises it:
 * - idempotency is exact here, not best effort: the ids of recently used streams are kept
 *   (StreamIdIndex), so a retry answers its original result and a reused id is refused;
 * - `after` is exclusive for reads (the server's reads include their start);
 * - the log is counted only by reading it, so countAfter counts small lags and answers null for large ones.
 */
export class EventStoreDbEventStore implements EventStore {
  private closed = false;
  private readonly scope: Scope;
  private readonly ids: StreamIdIndex;
  private readonly subscriptions = new Set<ResubscribingSubscription>();
  private readonly pending = new Set<Promise<AppendResult>>();
  private readonly floor: Position;

  constructor(
    private readonly client: EsdbClient,
    private readonly options: EventStoreDbOptions,
  ) {
    this.scope = scopeOf(options.namespace);
    this.floor = options.namespace ? (options.floor ?? START) : START;
    this.ids = new StreamIdIndex(async (stream, from) =>
      (await this.readServerStream(stream, { fromRevision: from })).map(idAndRevision),
    );
  }

  /**
   * Connects, and reads the head once so a wrong address or credential fails at start, not at
   * the first request. A new namespace starts at the log's current end.
   */
  static async open(connectionString: string, options: EventStoreDbOptions): Promise<EventStoreDbEventStore> {
    const client = KurrentDBClient.connectionString(connectionString);
    try {
      const floor = options.namespace && !options.floor ? await endOfLog(client) : options.floor;
      const store = new EventStoreDbEventStore(client, { ...options, floor });
      await store.headPosition();
      return store;
    } catch (error) {
      await client.dispose();
      throw error;
    }
  }

  append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision = 'any'): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new EventStoreClosedError());
    const appending = this.appendOnce(streamId, events, expectedRevision);
    // close() lets accepted appends finish before it disposes the client, as the SQLite store does.
    this.pending.add(appending);
    const settled = () => this.pending.delete(appending);
    appending.then(settled, settled);
    return appending;
  }

  private async appendOnce(
    streamId: string,
    events: NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('an append needs at least one event');
    const proposed = events.map(toEventData);
    const ids = proposed.map((event) => event.id);
    const stream = this.scope.toServer(streamId);
    const streamState = toStreamState(expectedRevision);
    for (let attempt = 1; ; attempt++) {
      const { known, current } = await this.knownIds(stream, expectedRevision, attempt > 1);
      const verdict = judgeAppend(ids, known.ids);
      if (verdict.kind === 'reused')
        throw new IdempotencyMismatchError(streamId, events[ids.indexOf(verdict.eventId)]?.id ?? verdict.eventId);
      if (verdict.kind === 'retry')
        return {
          nextExpectedRevision: verdict.lastRevision,
          position: await this.positionAt(stream, verdict.lastRevision),
        };
      if (current && !expectedRevisionMatches(expectedRevision, known.through))
        throw new WrongExpectedRevisionError(streamId, expectedRevision, known.through);
      let written: ClientAppendResult;
      try {
        written = await this.client.appendToStream(stream, proposed, { streamState });
      } catch (error) {
        if (!isWrongExpectedVersion(error)) throw error;
        // Another writer moved the stream, or this very append was stored by a concurrent retry:
        // look at the stream again and judge once more.
        if (attempt >= MAX_APPEND_ATTEMPTS) throw toWrongExpectedRevision(error, streamId, expectedRevision);
        continue;
      }
      this.ids.recordAppend(stream, ids, written.nextExpectedRevision);
      return {
        nextExpectedRevision: written.nextExpectedRevision,
        position: await this.positionOfAppend(stream, written, ids.length),
      };
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    if (options.fromRevision !== undefined && options.fromRevision < 0n)
      throw new RangeError('a stream revision is never negative');
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const stream = this.scope.toServer(streamId);
    const read = await this.readServerStream(stream, options);
    const events = read.map((event) => toRecordedEvent(event, streamId));
    // A whole stream read from its start (what a command handler does before appending) tells the
    // id index everything, sparing the append a read of its own.
    if (options.direction !== 'backwards' && options.fromRevision === undefined && options.maxCount === undefined)
      this.ids.learn(stream, 0n, events.map(idAndRevision));
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    let after = this.notBeforeFloor(options.after ?? START);
    // Reads include their start position, the port's `after` does not: ask for one more and drop
    // it. Pages only repeat when a page came back short of what is asked because of events kept
    // out here (system events the server filter let through).
    while (events.length < limit) {
      const want = limit - events.length;
      const page = await this.readAllPage(after, want === Number.POSITIVE_INFINITY ? undefined : want + 1);
      for (const event of page.events) {
        if (events.length < limit) events.push(event);
      }
      if (page.last === null || page.exhausted || comparePositions(page.last, after) !== 1) break;
      after = page.last;
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    this.assertOpen();
    const from = { ...options, after: this.notBeforeFloor(options.after ?? START) };
    const subscription = new ResubscribingSubscription(clientFeedSource(this.client, this.scope), from, handler, {
      logger: this.options.logger,
      backoff: this.options.backoff,
    });
    this.subscriptions.add(subscription);
    const forget = () => this.subscriptions.delete(subscription);
    subscription.done.then(forget, forget);
    return subscription;
  }

  /** The last event of `$all` that is not the server's own. */
  async headPosition(): Promise<Position> {
    this.assertOpen();
    if (this.floor !== START) {
      // A namespace: its events lie after the floor, and reading backwards for a prefix with no
      // events yet would scan the whole shared log.
      const events = await this.readAll();
      return events.length > 0 ? events[events.length - 1].position : START;
    }
    const window = await this.lastEvents(HEAD_WINDOW);
    const found = window.find((event) => !isSystemEvent(event));
    if (found || window.length < HEAD_WINDOW) return found?.position ?? START;
    // A long run of system events at the end (unusual: the filter excludes them on the server).
    for await (const resolved of this.client.readAll({
      direction: 'backwards',
      fromPosition: 'end',
      filter: this.scope.filter(),
    })) {
      const event = resolved.event && this.convertAll(resolved.event);
      if (event && !isSystemEvent(event)) return event.position;
    }
    return START;
  }

  /**
   * The server cannot count a range of `$all` without reading it. A small lag (the usual one:
   * caught up, or a few events behind) is counted from one short read; past the window the answer
   * is null, which the port allows, rather than reading the whole range on every health check.
   */
  async countAfter(position: Position): Promise<number | null> {
    const window = await this.readAll({ after: position, maxCount: COUNT_WINDOW });
    return window.length < COUNT_WINDOW ? window.length : null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.pending]);
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  /**
   * The stream's ids as far as this append needs them. A read is spared when the server's own
   * check covers what a read would tell: an exact revision that this process knows the stream up
   * to, or no_stream (anything stored makes the server refuse, and the refusal brings a look).
   * `current` says the answer was just read, so a conflict can be reported without asking.
   */
  private async knownIds(
    stream: string,
    expected: ExpectedRevision,
    force: boolean,
  ): Promise<{ known: KnownIds; current: boolean }> {
    if (!force) {
      const cached = this.ids.peek(stream);
      if (typeof expected === 'bigint' && cached?.through === expected) return { known: cached, current: false };
      if (expected === 'no_stream') return { known: cached ?? NOTHING_KNOWN, current: false };
    }
    return { known: await this.ids.refresh(stream), current: true };
  }

  /**
   * A single event's append result names its position. For several events the reported position
   * is not reliably the last event's (servers have reported the transaction's start), and an
   * idempotent success may carry none: read the last event back instead.
   */
  private async positionOfAppend(stream: string, written: ClientAppendResult, count: number): Promise<Position> {
    const reported = written.position;
    if (count === 1 && isKnownPosition(reported) && reported.commit === reported.prepare)
      return toPortPosition(reported);
    return this.positionAt(stream, written.nextExpectedRevision);
  }

  private async positionAt(stream: string, revision: StreamRevision): Promise<Position> {
    const [event] = await this.readServerStream(stream, { fromRevision: revision, maxCount: 1 });
    if (!event || event.revision !== revision) throw new Error(`event ${revision} of ${stream} is not in the store`);
    if (!isKnownPosition(event.position)) throw new MissingPositionError(stream, revision);
    return toPortPosition(event.position);
  }

  /** A stream's events as the client reads them; [] for a stream that does not exist. */
  private async readServerStream(stream: string, options: ReadStreamOptions): Promise<ClientRecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const events: ClientRecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, {
        direction: backwards ? 'backwards' : 'forwards',
        fromRevision: options.fromRevision ?? (backwards ? 'end' : 'start'),
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
      })) {
        if (resolved.event) events.push(resolved.event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  /** Events strictly after `after`, up to `maxCount` read (undefined: to the end). */
  private async readAllPage(
    after: Position,
    maxCount: number | undefined,
  ): Promise<{ events: RecordedEvent[]; last: Position | null; exhausted: boolean }> {
    const events: RecordedEvent[] = [];
    let last: Position | null = null;
    let read = 0;
    for await (const resolved of this.client.readAll({
      direction: 'forwards',
      fromPosition: toReadPosition(after),
      filter: this.scope.filter(),
      ...(maxCount !== undefined ? { maxCount } : {}),
    })) {
      read++;
      if (!resolved.event) continue;
      const event = this.convertAll(resolved.event);
      if (comparePositions(event.position, after) !== 1) continue;
      last = event.position;
      if (!isSystemEvent(event)) events.push(event);
    }
    return { events, last, exhausted: maxCount === undefined || read < maxCount };
  }

  private async lastEvents(count: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for await (const resolved of this.client.readAll({
      direction: 'backwards',
      fromPosition: 'end',
      maxCount: count,
      filter: this.scope.filter(),
    })) {
      if (resolved.event) events.push(this.convertAll(resolved.event));
    }
    return events;
  }

  private notBeforeFloor(position: Position): Position {
    return comparePositions(position, this.floor) === -1 ? this.floor : position;
  }

  private convertAll(event: ClientRecordedEvent): RecordedEvent {
    return toRecordedEvent(event, this.scope.fromServer(event.streamId));
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError();
  }
}

/** The position of the last record of `$all`, whoever wrote it (START when empty). */
export async function endOfLog(client: Pick<EsdbClient, 'readAll'>): Promise<Position> {
  for await (const resolved of client.readAll({ direction: 'backwards', fromPosition: 'end', maxCount: 1 })) {
    if (resolved.event && isKnownPosition(resolved.event.position)) return toPortPosition(resolved.event.position);
  }
  return START;
}

function idAndRevision(event: { id: string; revision: StreamRevision }): { id: string; revision: StreamRevision } {
  return { id: canonicalId(event.id), revision: event.revision };
}
