import type { EventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../../event-store/event-store.port';
import { WrongExpectedRevisionError } from '../../event-store/errors';
import type { Position } from '../../event-store/position';
import type { Clock } from '../clock/clock';
import { derivedUuid } from '../ids/derived-id';
import { uuidv7 } from '../ids/ids';
import type { CommandContext } from './command-context';
import type { Decider, DomainEvent } from './decider';

export interface CommandResult<State, Event> {
  /** Log position of the last appended event; null when the decider decided nothing. */
  position: Position | null;
  events: Event[];
  /** State after the new events: handy for building the response. */
  state: State;
}

const MAX_ATTEMPTS = 5;

/**
 * Load one stream, fold it, decide, append at the revision read. On a concurrent write the
 * whole cycle runs again against the new state (bounded), so no update is ever lost and the
 * decider always judges the latest state.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  clock: Clock,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  context: CommandContext,
): Promise<CommandResult<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamId);
    const state = history.reduce((s, e) => decider.evolve(s, e as unknown as Event), decider.initialState());
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { position: null, events: [], state };
    const expected: ExpectedRevision = history.length === 0 ? 'no_stream' : history[history.length - 1].revision;
    try {
      const result = await store.append(streamId, toNewEvents(decided, context, clock), expected);
      return { position: result.position, events: decided, state: decided.reduce(decider.evolve, state) };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
    }
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

/** Folding recorded events needs only their type and data, which is what deciders read. */
export type Recorded<Event extends DomainEvent> = RecordedEvent<Event['data']> & { type: Event['type'] };
