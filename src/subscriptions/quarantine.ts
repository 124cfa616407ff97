import type { RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { isTransientFailure } from './transient-failure';

/** Tries of one event on its own before it is set aside: enough to outlast a misread hiccup. */
export const POISON_ATTEMPTS = 3;
export const POISON_PAUSE_MS = 25;

export interface EventByEvent {
  /** One event in one transaction with the checkpoint at its position (applyBatch). */
  applyOne(event: RecordedEvent): Promise<void>;
  /** Moves the checkpoint alone, past a set-aside event and to where the batch ended. */
  saveCheckpoint(position: Position): Promise<void>;
  /** Records the event as dead before the checkpoint passes it: a crash between them meets it again. */
  deadLetter(event: RecordedEvent, error: unknown, attempts: number): Promise<void>;
  /** stops early (the runner is stopping): the rest waits for the next start */
  stopped?(): boolean;
}

/**
 * The slow path after a batch failed: its events again one by one, each in its own transaction
 * with the checkpoint, so the events that apply are kept and the one that cannot is found. An
 * event that keeps failing for a reason of its own is dead-lettered and passed; a transient
 * failure (database busy, connection lost) is thrown, for the runner's retry from the checkpoint.
 * Returns the events set aside.
 */
export async function applyEventByEvent(
  events: RecordedEvent[],
  last: Position,
  steps: EventByEvent,
): Promise<RecordedEvent[]> {
  const poisoned: RecordedEvent[] = [];
  for (const event of events) {
    if (steps.stopped?.()) throw new Error('stopped while applying a failed batch event by event');
    const failure = await tryOne(event, steps);
    if (!failure) continue;
    await steps.deadLetter(event, failure.error, POISON_ATTEMPTS);
    await steps.saveCheckpoint(event.position);
    poisoned.push(event);
  }
  await steps.saveCheckpoint(last);
  return poisoned;
}

/** Null when the event applied within POISON_ATTEMPTS tries; else the last error. */
async function tryOne(event: RecordedEvent, steps: EventByEvent): Promise<{ error: unknown } | null> {
  let failure: { error: unknown } | null = null;
  for (let attempt = 1; attempt <= POISON_ATTEMPTS; attempt++) {
    try {
      await steps.applyOne(event);
      return null;
    } catch (error) {
      if (isTransientFailure(error)) throw error;
      failure = { error };
      if (attempt < POISON_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, POISON_PAUSE_MS * attempt));
    }
  }
  return failure;
}
