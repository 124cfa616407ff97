import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Pace } from '../read-models/process-manager';
import type { ExternalEventDelivered } from './external-event.events';

export interface BindPacing {
  /** A delivery that has waited this long binds at once, however busy the webhook is (0: never hold binding back). */
  maxDelayMs: number;
  /** Binding that is less than this far behind is keeping up: it binds as deliveries come. */
  behindMs: number;
  /** Event-loop utilization at or above which the process counts as saturated (0..1). */
  saturatedAt: number;
  /** No delivery for this long: the webhook is quiet. */
  quietMs: number;
}

/** How often the event loop's utilization is sampled: the window the saturation is judged over. */
const UTILIZATION_WINDOW_MS = 100;

/** The event loop's utilization over the last completed window (perf_hooks), sampled lazily. */
export function eventLoopUtilization(now: () => number = () => performance.now()): () => number {
  let mark: EventLoopUtilization = performance.eventLoopUtilization();
  let markedAt = now();
  let last = 0;
  return () => {
    const at = now();
    if (at - markedAt >= UTILIZATION_WINDOW_MS) {
      const current = performance.eventLoopUtilization();
      last = performance.eventLoopUtilization(current, mark).utilization;
      mark = current;
      markedAt = at;
    }
    return last;
  };
}

/**
 * The webhook answers 201 "queued" once a delivery is durable. Binding it (the conversation's
 * append, the agent's answer, the read models behind them) is about twice the work of taking it
 * in, on the same event loop. Binding waits only when all of these hold: deliveries keep arriving,
 * binding has fallen `behindMs` behind (a rate it keeps up with binds as it comes, in small
 * batches), the process is saturated (spare time goes to binding), and the delivery has waited
 * less than `maxDelayMs`. So a burst is taken in at the webhook's own pace and bound right behind
 * it, and a burst longer than `maxDelayMs` slows the webhook to the rate binding keeps up with:
 * the backlog never holds more than `maxDelayMs` of deliveries.
 *
 * Pressure is judged on wall time and the event loop (real load); a delivery's wait on the platform
 * clock (`deliveredAt` was stamped with it, so both agree under the test clock too).
 */
export class BindPacer implements Pace {
  private lastIntake = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly pacing: BindPacing,
    private readonly platformNowMs: () => number,
    private readonly utilization: () => number = eventLoopUtilization(),
    private readonly wallNowMs: () => number = () => performance.now(),
  ) {}

  /** The webhook took a delivery in. */
  intake(): void {
    this.lastIntake = this.wallNowMs();
  }

  /** How long to wait before binding this batch: 0 to go ahead (the runner asks again after waiting). */
  delayMs(batch: RecordedEvent[]): number {
    if (this.pacing.maxDelayMs === 0) return 0;
    if (this.wallNowMs() - this.lastIntake >= this.pacing.quietMs) return 0;
    const waited = this.oldestWait(batch);
    if (waited < this.pacing.behindMs || waited >= this.pacing.maxDelayMs) return 0;
    if (this.utilization() < this.pacing.saturatedAt) return 0;
    return this.pacing.maxDelayMs - waited;
  }

  /** The first delivery of a batch is its oldest (log order). */
  private oldestWait(batch: RecordedEvent[]): number {
    const first = batch.find((event) => event.type === 'ExternalEventDelivered');
    if (!first) return 0;
    const delivered = Date.parse((first.data as ExternalEventDelivered).deliveredAt);
    return Number.isNaN(delivered) ? Number.POSITIVE_INFINITY : this.platformNowMs() - delivered;
  }
}
