import type { RecordedEvent } from './event-store.port';

/**
 * Lifts an event's data from one schema version to the next. Stored events are never rewritten;
 * readers see the newest shape.
 */
export interface Upcaster {
  type: string;
  fromVersion: number;
  /**
   * Written for the older shape (a method, so a parameter typed for it fits): the registry hands
   * it only data stored at `fromVersion` of `type`.
   */
  upcast(data: unknown): unknown;
}

export class Upcasters {
  /** by event type, then by the version each upcaster lifts from */
  private readonly byType = new Map<string, Map<number, Upcaster>>();

  constructor(upcasters: readonly Upcaster[] = []) {
    for (const upcaster of upcasters) {
      const versions = this.byType.get(upcaster.type) ?? new Map<number, Upcaster>();
      if (versions.has(upcaster.fromVersion))
        throw new Error(`two upcasters for ${upcaster.type}@${upcaster.fromVersion}`);
      this.byType.set(upcaster.type, versions.set(upcaster.fromVersion, upcaster));
    }
  }

  /** Every event read passes here: an event of a type without upcasters costs one map lookup. */
  apply<T>(event: RecordedEvent<T>): RecordedEvent<T> {
    const versions = this.byType.get(event.type);
    if (!versions) return event;
    let version = event.metadata.schemaVersion ?? 1;
    let upcaster = versions.get(version);
    if (!upcaster) return event;
    let data: unknown = event.data;
    while (upcaster) {
      data = upcaster.upcast(data);
      version++;
      upcaster = versions.get(version);
    }
    return { ...event, data: data as T, metadata: { ...event.metadata, schemaVersion: version } };
  }
}
