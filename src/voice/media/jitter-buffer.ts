/**
 * A fixed-delay jitter buffer for 20 ms audio frames: holds `depth` frames before playing, puts
 * frames back in sequence order, drops duplicates and frames that arrive after their turn, and
 * fills a missing frame with comfort silence so the listener's clock never stops.
 */
import { sequenceDelta } from './rtp-packet';

export class JitterBuffer<T> {
  private readonly held = new Map<number, T>();
  private next: number | null = null;
  private primed = false;
  /** nothing played yet: an earlier frame arriving second still opens the stream */
  private playing = false;

  constructor(
    private readonly depth: number,
    private readonly silence: () => T,
    /** frames further ahead than this reset the stream (a new SSRC, a far end restarting) */
    private readonly maxAhead = 50,
  ) {}

  /** false when the frame is a duplicate or late (its turn has passed) */
  push(sequence: number, frame: T): boolean {
    const seq = sequence & 0xffff;
    if (this.next === null) this.next = seq;
    let ahead = sequenceDelta(seq, this.next);
    if (ahead < 0 && !this.playing && -ahead <= this.maxAhead) {
      this.next = seq;
      ahead = 0;
    }
    if (ahead < 0) return false;
    if (ahead > this.maxAhead) {
      this.held.clear();
      this.next = seq;
      this.primed = false;
      this.playing = false;
    }
    if (this.held.has(seq)) return false;
    this.held.set(seq, frame);
    if (this.held.size >= this.depth) this.primed = true;
    return true;
  }

  /** The frame whose turn it is (silence when it never came), or null while still filling. */
  pop(): T | null {
    if (!this.primed || this.next === null) return null;
    if (this.held.size === 0) {
      // ran dry: wait for the buffer to fill again rather than play silence for ever
      this.primed = false;
      return null;
    }
    this.playing = true;
    const seq = this.next;
    this.next = (seq + 1) & 0xffff;
    const frame = this.held.get(seq);
    if (frame === undefined) return this.silence();
    this.held.delete(seq);
    return frame;
  }

  get size(): number {
    return this.held.size;
  }
}
