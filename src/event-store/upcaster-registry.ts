import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from './event-store.port';
import { Upcasters, type Upcaster } from './upcasting';

/**
 * The upcasters the event store applies to every read. The event store knows no context: the
 * composition root registers every context's upcasters (src/app.upcasters.ts) before anything
 * reads. A registration after the first read is refused, since an event already read would have
 * kept its old shape.
 */
@Injectable()
export class UpcasterRegistry {
  private readonly registered: Upcaster[] = [];
  private upcasters = new Upcasters();
  private readFrom = false;

  register(upcasters: readonly Upcaster[]): void {
    if (this.readFrom)
      throw new Error('upcasters registered after the event store was first read: register them at start');
    this.registered.push(...upcasters);
    this.upcasters = new Upcasters(this.registered);
  }

  apply<T>(event: RecordedEvent<T>): RecordedEvent<T> {
    this.readFrom = true;
    return this.upcasters.apply(event);
  }
}
