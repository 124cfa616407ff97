import { excludeSystemEvents, streamNameFilter, type Filter } from '@kurrent/kurrentdb-client';

/**
 * Which part of the server this store sees. Unscoped (production), every stream is Parley's and
 * the server filters system events out of `$all`. With a namespace, every stream name gets it as
 * a prefix and `$all` shows only those streams, so a test run on a shared server sees an empty
 * store of its own.
 */
export interface Scope {
  toServer(streamId: string): string;
  fromServer(stream: string): string;
  /** The server-side filter of `$all` reads and subscriptions. */
  filter(checkpointInterval?: number): Filter;
}

export function scopeOf(namespace: string | undefined): Scope {
  if (!namespace) {
    return {
      toServer: (streamId) => streamId,
      fromServer: (stream) => stream,
      filter: (checkpointInterval) => excludeSystemEvents({ checkpointInterval }),
    };
  }
  if (namespace.startsWith('$'))
    throw new RangeError('a namespace must not start with $ (the server keeps those streams to itself)');
  return {
    toServer: (streamId) => `${namespace}${streamId}`,
    fromServer: (stream) => (stream.startsWith(namespace) ? stream.slice(namespace.length) : stream),
    filter: (checkpointInterval) => streamNameFilter({ prefixes: [namespace], checkpointInterval }),
  };
}
