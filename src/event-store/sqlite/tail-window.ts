import type { RecordedEvent } from '../event-store.port';

/** release() cuts no fewer than this many events at once (a cut copies what is kept). */
const MIN_CUT = 64;

/**
 * The newest events the subscriptions of this process have read, parsed once and shared. Every
 * projection runner and process manager reads the log's tail on its own, each from where it is: a
 * runner that lets events gather, or a paced manager, sits a few batches behind the others, and
 * without this each of them would read and JSON-parse the same rows again.
 *
 * The window is a run of consecutive log entries: it only ever grows by a read that continued from
 * its last position, so "the events after p" it answers are exactly what the log holds after p,
 * up to its end. Positions are the store's global positions (numbers, ascending).
 */
export class TailWindow {
  /** at least `capacity` events once that many were read, at most a quarter more */
  private events: RecordedEvent[] = [];
  private positions: number[] = [];

  constructor(private readonly capacity: number) {}

  /** The global position of the window's first event, or null when it is empty. */
  get first(): number | null {
    return this.positions.length > 0 ? this.positions[0] : null;
  }

  /** The global position of the window's last event, or null when it is empty. */
  get last(): number | null {
    return this.positions.length > 0 ? this.positions[this.positions.length - 1] : null;
  }

  /**
   * The window's events after `after`, at most `max` (-1: all), or null when the window cannot
   * say (it starts later, or is empty): the caller reads the log.
   */
  after(after: number, max: number): RecordedEvent[] | null {
    const n = this.positions.length;
    if (n === 0 || after < this.positions[0] - 1 || after > this.positions[n - 1]) return null;
    const from = this.firstAfter(after);
    const to = max === -1 ? n : Math.min(n, from + max);
    return this.events.slice(from, to);
  }

  /**
   * Keeps `read`, the log's events after `after`: appended when it continues the window, the new
   * window when it does not (a subscription far behind, or the first read).
   */
  keep(after: number, read: RecordedEvent[], positionOf: (event: RecordedEvent) => number): void {
    if (read.length === 0) return;
    if (this.last !== after) {
      this.events = [];
      this.positions = [];
    }
    for (const event of read) {
      this.events.push(event);
      this.positions.push(positionOf(event));
    }
    // The oldest go in one cut once the window is a quarter past its capacity: cutting at every
    // read moved the whole array at every commit, a visible share of the event loop under load.
    if (this.events.length > this.capacity + Math.max(1, this.capacity >> 2)) {
      const excess = this.events.length - this.capacity;
      this.events = this.events.slice(excess);
      this.positions = this.positions.slice(excess);
    }
  }

  /**
   * Lets go of the events at or before `position` (every subscription of the window has read
   * them), keeping the last so the window still knows where it ends. In one cut once a quarter of
   * the window, or `MIN_CUT` events, can go: not at every commit.
   */
  release(position: number): void {
    const n = this.positions.length;
    if (n === 0) return;
    const drop = Math.min(this.firstAfter(position), n - 1);
    if (drop < Math.max(MIN_CUT, n >> 2)) return;
    this.events = this.events.slice(drop);
    this.positions = this.positions.slice(drop);
  }

  get size(): number {
    return this.events.length;
  }

  /** The index of the first event whose position is greater than `after` (binary search). */
  private firstAfter(after: number): number {
    let lo = 0;
    let hi = this.positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.positions[mid] <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
