/** A domain event as a decider emits it: what happened, without storage concerns. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  /** Schema version of `data`; upcasters lift older versions on read. Default 1. */
  schemaVersion?: number;
}

/**
 * The heart of a context: pure functions, no I/O, no clock (the command carries `now`).
 * `decide` throws a DomainError to refuse a command.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}
