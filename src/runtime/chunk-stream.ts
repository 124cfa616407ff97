/**
 * The pieces of an answer as the runtime produces them, as an async iterable: what a channel that
 * speaks or shows the answer while it is written (voice, web chat) reads. Unbounded on the push
 * side by design: a turn's answer is bounded by the model stream's own limit (llm/sse.ts).
 */
export class ChunkStream implements AsyncIterable<string> {
  private readonly queue: string[] = [];
  private done = false;
  private wake: (() => void) | null = null;

  push(text: string): void {
    if (this.done || text.length === 0) return;
    this.queue.push(text);
    this.wake?.();
  }

  end(): void {
    this.done = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      if (this.queue.length > 0) {
        yield this.queue.shift()!;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}
