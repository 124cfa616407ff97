import { In, type DataSource } from 'typeorm';
import { START, type Position } from '../event-store/position';
import { ProcessCheckpoint } from '../platform/database/platform.entities';

/** How often the stored checkpoints are read again while a request waits on them. */
const POLL_MS = 20;

interface Waiter {
  names: readonly string[];
  target: Position;
  resolve(): void;
}

/**
 * How far the process managers that another process runs have reacted to the log: their stored
 * checkpoints in the shared platform database, which the running process stores after each batch
 * it acted on and a moment after the others. A read that must see a manager's effects (a
 * conversation an SMS started) waits here on a process that does not run it. One poll serves
 * every waiter, and runs only while someone waits.
 */
export class FollowedCheckpoints {
  private readonly waiters = new Set<Waiter>();
  private polling = false;

  constructor(
    private readonly platform: DataSource,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Resolves once every manager of `names` has a stored checkpoint at or past `target`; the caller bounds the wait. */
  reached(names: readonly string[], target: Position): { promise: Promise<void>; cancel(): void } {
    if (names.length === 0) return { promise: Promise.resolve(), cancel: () => undefined };
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => (waiter = { names, target, resolve }));
    this.waiters.add(waiter);
    if (!this.polling) void this.poll();
    return { promise, cancel: () => this.waiters.delete(waiter) };
  }

  private async poll(): Promise<void> {
    this.polling = true;
    let reported = false;
    try {
      while (this.waiters.size > 0) {
        const names = new Set([...this.waiters].flatMap((w) => w.names));
        try {
          const rows = await this.platform.getRepository(ProcessCheckpoint).find({ where: { name: In([...names]) } });
          const stored = new Map(rows.map((row) => [row.name, row.position as Position]));
          for (const waiter of [...this.waiters]) {
            if (waiter.names.every((name) => (stored.get(name) ?? START) >= waiter.target)) {
              this.waiters.delete(waiter);
              waiter.resolve();
            }
          }
        } catch (error) {
          // the database did not answer: the waiters' own bounds end their waits
          if (!reported) this.onError(error);
          reported = true;
        }
        if (this.waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      this.polling = false;
    }
  }
}
