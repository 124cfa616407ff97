import type { NewEvent, RecordedEvent } from './event-store.port';

/**
 * What turns the personal fields of events into ciphertext before they are stored, and back for
 * readers (contract §24, crypto-shredding). The event store knows only this shape; a context that
 * seals (src/erasure) registers its rules at start, as upcasters are registered.
 */
export interface EventSealing {
  /** The events as they will be stored: personal fields sealed. */
  seal(streamId: string, events: NewEvent[]): Promise<NewEvent[]>;
  /** Stored events as readers see them: opened, or erased where their key is gone. */
  open(events: RecordedEvent[]): Promise<RecordedEvent[]>;
}

/**
 * The app's sealing, registered at start: none until a context registers it. Registering after
 * the first read would let a reader see sealed fields, so it is refused then.
 */
export class SealingRegistry implements EventSealing {
  private sealing: EventSealing | null = null;
  private used = false;

  register(sealing: EventSealing): void {
    if (this.used)
      throw new Error('event sealing registered after the event store was first used: register it at start');
    this.sealing = sealing;
  }

  seal(streamId: string, events: NewEvent[]): Promise<NewEvent[]> {
    this.used = true;
    return this.sealing ? this.sealing.seal(streamId, events) : Promise.resolve(events);
  }

  open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    this.used = true;
    return this.sealing ? this.sealing.open(events) : Promise.resolve(events);
  }
}
