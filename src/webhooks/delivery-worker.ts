import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { ServerSecret } from '../platform/auth/server-secret';
import { Clock } from '../platform/clock/clock';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { WebhookOutbox, type ClaimedDelivery } from './outbox';
import { afterAttempt, attemptError } from './retry-schedule';
import { WEBHOOK_SENDER, type WebhookSender } from './sender';
import { deliveryHeaders } from './signature';
import { SubscribedEndpoints } from '../../projections/webhook-endpoints/queries';
import { ROW_LEASE_MS, RowLeases } from '../subscriptions/row-leases';

/** Sends in flight at once: one slow receiver must not hold up everyone else's deliveries. */
const CONCURRENCY = 8;
/** Longer than the longest endpoint timeout (30 s): a live worker always settles before it stops renewing. */
const MAX_HOLD_MS = 2 * 60_000;
const MAX_SLEEP_MS = 30_000;
const RETRY_MS = 1_000;
const PRUNE_EVERY_MS = 3600_000;
/** Finished deliveries and their attempts are kept this long (platform clock). */
const RETENTION_MS = 30 * 24 * 3600_000;

/**
 * Sends the outbox's due deliveries, signed, on the platform clock (contract §13). A delivery is
 * claimed with a lease before it is sent, the lease renewed while the send lasts, and settled
 * (attempt recorded, next attempt scheduled or finished) in one transaction after; a process
 * killed in between leaves the lease to run out within seconds and the attempt to be made again
 * by another. Once a 2xx is recorded the delivery is never claimed again.
 */
@Injectable()
export class DeliveryWorker {
  private readonly inFlight = new Map<string, Promise<void>>();
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private wakeTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastPruneMs = 0;
  /** the deliveries in flight here: their leases are renewed until each is settled */
  private readonly leases = new RowLeases({
    renew: (ids) => this.outbox.renew(ids, new Date(this.clock.nowMs() + ROW_LEASE_MS).toISOString()),
    onError: (error) =>
      this.logger.warn({ err: error }, 'could not renew the leases of the webhook deliveries in flight'),
    now: () => this.clock.nowMs(),
    maxHoldMs: MAX_HOLD_MS,
  });

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly endpoints: SubscribedEndpoints,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(WEBHOOK_SENDER) private readonly send: WebhookSender,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.clock.onAdvance(() => this.poke());
    this.poke();
  }

  /** Stops claiming; waits for the sends in flight to be settled, so none is made twice. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    // a claim under way may still add sends: let it, then wait for them all
    await this.running;
    await Promise.all([...this.inFlight.values()]);
    this.leases.stop();
  }

  /** Looks for due deliveries now (new ones queued, the clock moved, a send finished). */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.claimAndSend()
      .catch((error: unknown) => {
        // e.g. the database stayed locked past its busy timeout, or PostgreSQL was unreachable: look again shortly
        this.logger.error({ err: error }, 'webhook delivery loop failed; retrying');
        this.sleep(RETRY_MS);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  private async claimAndSend(): Promise<void> {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    const nowMs = this.clock.nowMs();
    if (nowMs - this.lastPruneMs >= PRUNE_EVERY_MS) {
      this.lastPruneMs = nowMs;
      await this.outbox.prune(new Date(nowMs - RETENTION_MS).toISOString());
    }
    // Claiming now would only hold deliveries for a lease: their endpoints cannot be read yet.
    if (!this.endpoints.serving()) return this.sleep(RETRY_MS);
    const room = CONCURRENCY - this.inFlight.size;
    if (room > 0) {
      for (const delivery of await this.outbox.claimDue(nowMs, room, ROW_LEASE_MS, new Set(this.inFlight.keys()))) {
        this.leases.hold([delivery.id]);
        const sending = this.deliver(delivery)
          .catch((error: unknown) =>
            this.logger.error(
              { err: error, delivery: delivery.id },
              'webhook delivery failed; it is retried when its lease runs out',
            ),
          )
          .finally(() => {
            this.inFlight.delete(delivery.id);
            this.leases.release(delivery.id);
            this.poke();
          });
        this.inFlight.set(delivery.id, sending);
      }
    }
    // At capacity, a finishing send pokes; otherwise wake for the next due delivery.
    if (this.inFlight.size < CONCURRENCY) await this.sleepUntilNext();
  }

  private async sleepUntilNext(): Promise<void> {
    const next = await this.outbox.nextDueAt();
    if (next === null) return this.sleep(MAX_SLEEP_MS);
    const until = Date.parse(next) - this.clock.nowMs();
    // Already due but not claimable: in flight here, or held by another process's lease.
    this.sleep(until <= 0 ? RETRY_MS : Math.min(until, MAX_SLEEP_MS));
  }

  /** A manual clock only moves on advance(), which pokes; the sleep still bounds a missed poke. */
  private sleep(ms: number): void {
    if (this.stopped) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = setTimeout(() => this.poke(), Math.max(ms, 5));
    this.wakeTimer.unref();
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const endpoint = await this.endpoints.forDelivery(delivery.endpointId);
    if (!endpoint || endpoint.deleted || !endpoint.enabled) {
      await this.outbox.cancel(delivery.id, this.clock.nowIso());
      this.metrics?.webhookDeliveries.inc({ outcome: 'cancelled' });
      return;
    }
    const secret = this.secret.decrypt(endpoint.sealedSecret);
    const custom = JSON.parse(this.secret.decrypt(endpoint.sealedHeaders)) as Record<string, string>;
    const attemptedAtMs = this.clock.nowMs();
    const timestamp = Math.floor(attemptedAtMs / 1000);
    const started = performance.now();
    const result = await this.send({
      url: endpoint.url,
      body: delivery.payload,
      headers: { ...custom, ...deliveryHeaders(secret, timestamp, delivery.payload, delivery.eventId) },
      timeoutMs: endpoint.timeoutMs,
    });
    const durationMs = Math.round(performance.now() - started);
    const attempt = delivery.attempts + 1;
    const { outcome, nextAttemptAtMs } = afterAttempt(attempt, result, this.clock.nowMs());
    const error = attemptError(result);
    const recorded = await this.outbox.recordAttempt(delivery, {
      attempt,
      statusCode: 'statusCode' in result ? result.statusCode : null,
      error,
      durationMs,
      attemptedAt: new Date(attemptedAtMs).toISOString(),
      outcome,
      nextAttemptAt: nextAttemptAtMs === null ? null : new Date(nextAttemptAtMs).toISOString(),
    });
    if (recorded) this.metrics?.webhookDeliveries.inc({ outcome });
    if (error === null)
      this.logger.debug(
        { delivery: delivery.id, endpoint: endpoint.id, attempt, outcome, durationMs },
        'webhook attempt',
      );
    else
      this.logger.info(
        { delivery: delivery.id, endpoint: endpoint.id, attempt, outcome, durationMs, error },
        'webhook attempt failed',
      );
  }
}
