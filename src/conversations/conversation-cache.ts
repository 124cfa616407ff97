import { Injectable } from '@nestjs/common';
import { AggregateCache } from '../commands/aggregate-cache';

/**
 * Folded conversation states, shared by everything in this process that writes to conversation
 * streams (the conversation engine, for every channel and for the external-events binding): a
 * writer keeps it current through handleCommand, so a channel checks a turn against the cached
 * state without reading the stream and still sees a delayed response bound here. Another
 * process's append is caught by the revision check of the next command on that stream.
 */
@Injectable()
export class ConversationCache extends AggregateCache {
  constructor() {
    // web chat alone keeps thousands of sessions busy at once
    super(20_000);
  }
}
