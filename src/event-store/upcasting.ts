import type { RecordedEvent } from './event-store.port';

/**
 * Lifts an event's data from one schema version to the next. Stored events are never rewritten;
 * readers see the newest shape.
 */
export interface Upcaster {
  type: string;
  fromVersion: number;
  upcast(data: any): any;
}

export class Upcasters {
  private readonly byKey = new Map<string, Upcaster>();

  constructor(upcasters: Upcaster[] = []) {
    for (const upcaster of upcasters) {
      const key = `${upcaster.type}@${upcaster.fromVersion}`;
      if (this.byKey.has(key)) throw new Error(`two upcasters for ${key}`);
      this.byKey.set(key, upcaster);
    }
  }

  apply<T>(event: RecordedEvent<T>): RecordedEvent<T> {
    if (this.byKey.size === 0) return event;
    let version = event.metadata.schemaVersion ?? 1;
    let upcaster = this.byKey.get(`${event.type}@${version}`);
    if (!upcaster) return event;
    let data: unknown = event.data;
    while (upcaster) {
      data = upcaster.upcast(data);
      version++;
      upcaster = this.byKey.get(`${event.type}@${version}`);
    }
    return { ...event, data: data as T, metadata: { ...event.metadata, schemaVersion: version } };
  }
}
