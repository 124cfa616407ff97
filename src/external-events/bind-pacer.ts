import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Pace } from '../process-managers/process-manager';
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
  /**
   * Deliveries in flight at once (over the last window or two) at or above which the process
   * counts as saturated, whatever the event loop's utilization (0: judge by utilization alone).
   * Senders queueing on the webhook are the saturation the loop's utilization misses: the loop
   * shares the machine's two cores with the writer thread, the garbage collector's helpers and
   * often the senders: at full speed the loop reads well under saturated while they take most of
   * the other core, and binding then ran beside the burst and slowed the webhook (figures in
   * bench/README.md, the external-events narrative).
   */
  busyInFlight: number;
}

/** How often the event loop's utilization is sampled, and the window deliveries in flight are judged over. */
const UTILIZATION_WINDOW_MS = 100;

/** The event loop's utilization over the last completed window (perf_hooks), sampled lazily. */
function eventLoopUtilization(now: () => number = () => performance.now()): () => number {
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
 * batches), the process is saturated (the event loop is busy or senders queue on the webhook;
 * spare time goes to binding), and the delivery has waited less than `maxDelayMs`. So a burst is
 * taken in at the webhook's own pace and bound right behind it, and a burst longer than
 * `maxDelayMs` slows the webhook to the rate binding keeps up with: the backlog never holds more
 * than `maxDelayMs` of deliveries.
 *
 * Pressure is judged on wall time and the event loop (real load); a delivery's wait on the platform
 * clock (`deliveredAt` was stamped with it, so both agree under the test clock too).
 */
export class BindPacer implements Pace {
  private lastIntake = Number.NEGATIVE_INFINITY;
  private inFlight = 0;
  /** the most deliveries in flight at once in the current window, and in the one before it */
  private windowPeak = 0;
  private previousPeak = 0;
  private windowStartedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly pacing: BindPacing,
    private readonly platformNowMs: () => number,
    private readonly utilization: () => number = eventLoopUtilization(),
    private readonly wallNowMs: () => number = () => performance.now(),
  ) {}

  /** The webhook took a delivery in: call the function it returns once that delivery is answered. */
  intake(): () => void {
    const now = this.wallNowMs();
    this.lastIntake = now;
    this.rotate(now);
    this.inFlight++;
    if (this.inFlight > this.windowPeak) this.windowPeak = this.inFlight;
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      this.inFlight--;
    };
  }

  /** Deliveries taken in and not answered yet. */
  get deliveriesInFlight(): number {
    return this.inFlight;
  }

  /** How long to wait before binding this batch: 0 to go ahead (the runner asks again after waiting). */
  delayMs(batch: RecordedEvent[]): number {
    if (this.pacing.maxDelayMs === 0) return 0;
    if (this.wallNowMs() - this.lastIntake >= this.pacing.quietMs) return 0;
    const waited = this.oldestWait(batch);
    if (waited < this.pacing.behindMs || waited >= this.pacing.maxDelayMs) return 0;
    if (!this.saturated()) return 0;
    return this.pacing.maxDelayMs - waited;
  }

  private saturated(): boolean {
    if (this.pacing.busyInFlight > 0) {
      this.rotate(this.wallNowMs());
      if (Math.max(this.windowPeak, this.previousPeak) >= this.pacing.busyInFlight) return true;
    }
    return this.utilization() >= this.pacing.saturatedAt;
  }

  /** Starts a new window once the current one is over; a window with no intake peaks at what was left in flight. */
  private rotate(now: number): void {
    const elapsed = now - this.windowStartedAt;
    if (elapsed < UTILIZATION_WINDOW_MS) return;
    this.previousPeak = elapsed < 2 * UTILIZATION_WINDOW_MS ? this.windowPeak : this.inFlight;
    this.windowPeak = this.inFlight;
    this.windowStartedAt = now;
  }

  /** The first delivery of a batch is its oldest (log order). */
  private oldestWait(batch: RecordedEvent[]): number {
    const first = batch.find((event) => event.type === 'ExternalEventDelivered');
    if (!first) return 0;
    const delivered = Date.parse((first.data as ExternalEventDelivered).deliveredAt);
    return Number.isNaN(delivered) ? Number.POSITIVE_INFINITY : this.platformNowMs() - delivered;
  }
}
