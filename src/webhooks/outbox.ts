import { derivedUuid } from '../platform/ids/derived-id';
import type { AttemptOutcome, DeliveryStatus } from './webhooks.entities';
import type { WebhookEvent } from './webhook-event';

/** A delivery a worker has claimed (leased) for its next attempt. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  payload: string;
  /** attempts made before this one */
  attempts: number;
}

export interface AttemptRecord {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
  outcome: AttemptOutcome;
  nextAttemptAt: string | null;
}

/** One attempt with its delivery, for the deliveries route. */
export interface AttemptListing {
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
  outcome: string;
  next_attempt_at: string | null;
  delivery_status: string;
}

/** Stable per (source event, endpoint): the id a replay would give the same delivery. */
export const deliveryId = (sourceEventId: string, endpointId: string) =>
  `whd_${derivedUuid(`${sourceEventId}>${endpointId}`).replace(/-/g, '').slice(0, 24)}`;

export const STATUS_FINISHED: DeliveryStatus[] = ['delivered', 'failed', 'cancelled'];

/**
 * The durable outbox of webhook deliveries in the platform database: queued by the webhook events
 * process manager, claimed with a lease and settled by the delivery worker. One implementation per
 * database (sqlite-outbox.ts, postgres-outbox.ts; openWebhookOutbox picks one); an abstract class
 * rather than an interface so that Nest can inject it by type.
 */
export abstract class WebhookOutbox {
  /**
   * One delivery of the event to each of `endpointIds` (the endpoints listening to it: see
   * SubscribedEndpoints). Idempotent on (source event, endpoint). Returns how many are new.
   */
  abstract enqueue(
    accountId: string,
    event: WebhookEvent,
    sourceEventId: string,
    endpointIds: string[],
    nowIso: string,
  ): Promise<number>;

  /**
   * Claims up to `limit` deliveries due at `nowMs` whose lease (if any) has run out, leasing them
   * until `nowMs + leaseMs`, atomically: two workers never claim the same one. `skip`: deliveries
   * this process is still sending. In due order.
   */
  abstract claimDue(
    nowMs: number,
    limit: number,
    leaseMs: number,
    skip: ReadonlySet<string>,
  ): Promise<ClaimedDelivery[]>;

  /** Extends to `untilIso` the lease of each of `ids` still pending (a send in flight takes its time). */
  abstract renew(ids: string[], untilIso: string): Promise<void>;

  /**
   * Settles one attempt: the attempt row and the delivery's new state together. Only the attempt
   * the delivery is waiting for counts (a stale duplicate changes nothing). Returns whether it did.
   */
  abstract recordAttempt(delivery: ClaimedDelivery, record: AttemptRecord): Promise<boolean>;

  /** A delivery whose endpoint was deleted or disabled before its attempt: never sent. */
  abstract cancel(deliveryId: string, nowIso: string): Promise<void>;

  /** An endpoint was deleted: what it still had to receive is never sent. Returns how many. */
  abstract cancelPending(endpointId: string, nowIso: string): Promise<number>;

  /** The endpoint's latest attempts, newest first. */
  abstract attempts(endpointId: string, limit: number): Promise<AttemptListing[]>;

  /** When the worker should look again: the earliest due time or lease end of a pending delivery. */
  abstract nextDueAt(): Promise<string | null>;

  /** Forgets finished deliveries (and their attempts) last touched before `beforeIso`. */
  abstract prune(beforeIso: string): Promise<number>;
}
