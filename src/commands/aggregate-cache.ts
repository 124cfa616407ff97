import type { StreamRevision } from '../event-store/event-store.port';

interface Entry {
  revision: StreamRevision;
  state: unknown;
}

/**
 * Folded states of recently used streams, so a command reads only the events after the state it
 * already has instead of the whole stream (an agent with thousands of topics stays fast). States
 * are never mutated (evolve returns new ones), so sharing them is safe; a stale entry is harmless
 * because the append still checks the revision and a conflict evicts it.
 */
export class AggregateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 2000) {}

  get<S>(key: string): { revision: StreamRevision; state: S } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // refresh recency: Map iteration order is insertion order
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry as { revision: StreamRevision; state: S };
  }

  set(key: string, revision: StreamRevision, state: unknown): void {
    // a reader that folded the stream before a command appended to it must not take the cache back
    const current = this.entries.get(key);
    if (current && current.revision > revision) return;
    this.entries.delete(key);
    this.entries.set(key, { revision, state });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  evict(key: string): void {
    this.entries.delete(key);
  }
}
