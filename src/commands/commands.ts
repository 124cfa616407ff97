import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { AggregateCache } from './aggregate-cache';
import { CommandHandler } from './command-handler';
import type { Decider, DomainEvent } from './decider';
import { KeyedQueue } from './keyed-queue';

export interface CommandHandlerOptions {
  /** Keep the folded states of this many recently used streams (AggregateCache); none when absent. */
  cache?: { capacity: number };
}

/**
 * Makes the command handler of each stream family over the app's event store and clock. A family
 * gets one handler (a second `for` of its decider throws), so one cache sees every append this
 * process makes to it; all handlers share one queue keyed by stream id, so per-stream order holds
 * even if two deciders write one stream. Nothing is module-global: two instances share nothing.
 */
@Injectable()
export class Commands {
  private readonly streams = new KeyedQueue();
  private readonly families = new Set<object>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  for<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    options: CommandHandlerOptions = {},
  ): CommandHandler<State, Command, Event> {
    if (this.families.has(decider))
      throw new Error('this decider already has its command handler: inject that one, so its family has one cache');
    this.families.add(decider);
    const cache = options.cache ? new AggregateCache(options.cache.capacity) : undefined;
    return new CommandHandler(this.store, this.clock, decider, this.streams, cache);
  }
}
