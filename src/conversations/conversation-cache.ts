import { Global, Injectable, Module } from '@nestjs/common';
import { AggregateCache } from '../platform/commands/aggregate-cache';

/**
 * Folded conversation states, shared by everything in this process that writes to conversation
 * streams (debug chat and the external-events binding): a writer keeps it current through
 * handleCommand, so debug chat checks a turn against the cached state without reading the stream
 * and still sees a delayed response bound here. Another process's append is caught by the
 * revision check of the next command on that stream.
 */
@Injectable()
export class ConversationCache extends AggregateCache {
  constructor() {
    super(5000);
  }
}

@Global()
@Module({ providers: [ConversationCache], exports: [ConversationCache] })
export class ConversationCacheModule {}
