/**
 * The answer of a tool round trip, as written: what the model said before calling its tools (a
 * "let me check", already streamed) and the final answer it writes from their results, joined by
 * a space where neither side has one. Pieces go to `write` as they come, the separator with the
 * first, so the pieces a channel showed or spoke join into exactly the recorded answer.
 */
export class FollowUpAnswer {
  private started = false;

  constructor(
    private readonly before: string,
    private readonly write: (piece: string) => void,
  ) {}

  push(piece: string): void {
    if (piece.length === 0) return;
    const first = !this.started;
    this.started = true;
    this.write(first ? this.separatorBefore(piece) + piece : piece);
  }

  /** the recorded answer, given the final answer's whole text */
  text(final: string): string {
    return this.before + this.separatorBefore(final) + final;
  }

  private separatorBefore(next: string): string {
    return this.before && !/\s$/.test(this.before) && !/^\s/.test(next) ? ' ' : '';
  }
}
