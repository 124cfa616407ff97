import type { ReadableOptions } from 'node:stream';
import type {
  AllStreamResolvedEvent,
  AppendResult as ClientAppendResult,
  AppendToStreamOptions,
  JSONEventData,
  ReadAllOptions,
  ReadStreamOptions,
  ResolvedEvent,
  SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import type { PullStream } from './readable-feed';

/** The client's subscription: an object-mode Readable of resolved events that can be ended. */
export type AllSubscriptionStream = PullStream & { unsubscribe(): Promise<void> };

/**
 * The part of KurrentDBClient the adapter uses. The real client fits it as it is (open() passes
 * one); naming the slice keeps the adapter honest about what it relies on, and lets a fake
 * stand in where no server can run.
 */
export interface EsdbClient {
  appendToStream(
    streamName: string,
    events: JSONEventData[],
    options: AppendToStreamOptions,
  ): Promise<ClientAppendResult>;
  readStream(streamName: string, options: ReadStreamOptions): AsyncIterable<ResolvedEvent>;
  readAll(options: ReadAllOptions): AsyncIterable<AllStreamResolvedEvent>;
  subscribeToAll(options: SubscribeToAllOptions, readableOptions?: ReadableOptions): AllSubscriptionStream;
  dispose(): Promise<void>;
}
