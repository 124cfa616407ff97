import type { EventStore, ExpectedRevision, NewEvent, StreamRevision } from '../event-store/event-store.port';
import { WrongExpectedRevisionError } from '../event-store/errors';
import type { Position } from '../event-store/position';
import type { Clock } from '../platform/clock/clock';
import { derivedUuid } from '../platform/ids/derived-id';
import { uuidv7 } from '../platform/ids/ids';
import type { CommandContext } from './command-context';
import type { AggregateCache } from './aggregate-cache';
import type { KeyedQueue } from './keyed-queue';
import type { Decider, DomainEvent } from './decider';

export interface CommandResult<State, Event> {
  /** Log position of the last appended event; null when the decider decided nothing. */
  position: Position | null;
  events: Event[];
  /** State after the new events: handy for building the response. */
  state: State;
}

/** A stream folded up to its last event's revision (null: the stream has no events). */
export interface Folded<State> {
  state: State;
  revision: StreamRevision | null;
}

const MAX_ATTEMPTS = 10;

/**
 * The one writer of a stream family (the streams one decider decides), made once by
 * `Commands.for` and shared by every caller: so its cache has seen every append of this process,
 * and a command decides on cached state without reading. Its queue is the Commands' one, keyed by
 * stream id, so per-stream order holds whichever handler writes.
 */
export class CommandHandler<State, Command, Event extends DomainEvent> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly decider: Decider<State, Command, Event>,
    private readonly streams: KeyedQueue,
    private readonly cache?: AggregateCache,
  ) {}

  /**
   * Load one stream, fold it, decide, append at the revision read. On a concurrent write the
   * whole cycle runs again against the new state (bounded), so no update is ever lost and the
   * decider always judges the latest state.
   */
  handle(streamId: string, command: Command, context: CommandContext): Promise<CommandResult<State, Event>> {
    const { store, clock, decider, cache } = this;
    return this.streams.run(streamId, async () => {
      for (let attempt = 1; ; attempt++) {
        // First try on the cached state without reading: in this process commands on a stream are
        // queued, so it is current unless another process wrote; then the append's revision check
        // fails and the retry reads. A refusal or a no-op on unread state is checked on fresh state.
        const cached = attempt === 1 ? cache?.get<State>(streamId) : undefined;
        const { state, revision } = cached ?? (await this.load(streamId));
        let decided: Event[];
        try {
          decided = decider.decide(command, state);
        } catch (error) {
          if (!cached) throw error;
          cache?.evict(streamId);
          continue;
        }
        if (decided.length === 0) {
          if (!cached) return { position: null, events: [], state };
          cache?.evict(streamId);
          continue;
        }
        const expected: ExpectedRevision = revision ?? 'no_stream';
        try {
          const result = await store.append(streamId, toNewEvents(decided, context, clock), expected);
          const next = decided.reduce(decider.evolve, state);
          // An idempotent repeat answers with the original revision: then the cache is not advanced.
          if (cache && result.nextExpectedRevision === (revision ?? -1n) + BigInt(decided.length))
            cache.set(streamId, result.nextExpectedRevision, next);
          else cache?.evict(streamId);
          return { position: result.position, events: decided, state: next };
        } catch (error) {
          cache?.evict(streamId);
          if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
          // another process wrote meanwhile: back off a little, with jitter, before deciding again
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
        }
      }
    });
  }

  /** Folds a stream, starting from the cached state when there is one (reads only what came after it). */
  async load(streamId: string): Promise<Folded<State>> {
    const { cache, decider } = this;
    const cached = cache?.get<State>(streamId);
    const fromRevision = cached ? cached.revision + 1n : undefined;
    const events = await this.store.readStream(streamId, { fromRevision });
    let state = cached ? cached.state : decider.initialState();
    for (const event of events) state = decider.evolve(state, event as unknown as Event);
    const revision = events.length > 0 ? events[events.length - 1].revision : cached ? cached.revision : null;
    if (cache && revision !== null && events.length > 0) cache.set(streamId, revision, state);
    return { state, revision };
  }

  /**
   * The state to check a request against before running a command on it: the cached state when
   * there is one, without reading. It is current unless another process wrote to the stream; then
   * the command's append conflicts and its decider judges the fresh state, so nothing the decider
   * refuses gets through on a stale check.
   */
  async peek(streamId: string): Promise<State> {
    return this.cache?.get<State>(streamId)?.state ?? (await this.load(streamId)).state;
  }
}

export function toNewEvents(events: DomainEvent[], context: CommandContext, clock: Clock): NewEvent[] {
  const occurredAt = clock.nowIso();
  return events.map((event, index) => ({
    id: context.idempotencyKey ? derivedUuid(`${context.idempotencyKey}#${index}`) : uuidv7(),
    type: event.type,
    data: event.data,
    metadata: {
      schemaVersion: event.schemaVersion ?? 1,
      actor: context.actor,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      occurredAt,
    },
  }));
}
