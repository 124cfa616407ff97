import { START, type Position } from '../position';

export interface Wait {
  promise: Promise<void>;
  cancel(): void;
}

/**
 * What tells this process's subscriptions that the log may have grown: its own commits, the
 * NOTIFY of any process's commit (notifications.ts), and, in case a notification was missed (the
 * LISTEN connection was down), a poll of the log's head while any subscription sleeps: one query
 * per interval for all of them, however many there are.
 */
export class WakeUps {
  /** Moves at every wake-up: unchanged since a read means the read saw all this process knows of. */
  generation = 0;
  /** The newest xid8 known to have committed events: a read whose horizon is not past it missed some. */
  knownCommitted = 0n;
  private readonly sleepers = new Set<() => void>();
  private pollTimer: NodeJS.Timeout | null = null;
  private polledHead: Position = START;
  private closed = false;

  constructor(
    private readonly pollIntervalMs: number,
    private readonly head: () => Promise<Position>,
  ) {}

  /** A commit of this process or another (`xid` its xid8, when it stored events). */
  committed(xid: bigint | null): void {
    if (xid !== null && xid > this.knownCommitted) this.knownCommitted = xid;
    this.wakeAll();
  }

  wakeAll(): void {
    this.generation++;
    for (const wake of [...this.sleepers]) wake();
  }

  /** Until the next wake-up after `seen` (at once if one came since), `timeoutMs`, or cancel. */
  wait(seen: number, timeoutMs: number | null = null): Wait {
    if (this.generation !== seen || this.closed) return { promise: Promise.resolve(), cancel: () => undefined };
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      if (timeoutMs !== null) timer = setTimeout(wake, timeoutMs);
    });
    this.sleepers.add(wake);
    this.schedulePoll();
    return { promise, cancel: wake };
  }

  close(): void {
    this.closed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    this.wakeAll();
  }

  private schedulePoll(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setTimeout(() => void this.poll(), this.pollIntervalMs);
  }

  /**
   * A head that moved wakes everyone. A row that becomes visible always sorts after the head read
   * before it (log-reader.ts, the horizon), so the head moves whenever anything new can be read.
   */
  private async poll(): Promise<void> {
    try {
      const head = await this.head();
      if (head !== this.polledHead) {
        this.polledHead = head;
        this.wakeAll();
      }
    } catch {
      // the reads the sleepers make when woken report a failing database; a poll only looks
      this.wakeAll();
    } finally {
      this.pollTimer = null;
      if (this.sleepers.size > 0) this.schedulePoll();
    }
  }
}
