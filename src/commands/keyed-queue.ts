/**
 * Runs tasks one at a time per key, in arrival order, and different keys in parallel. Commands on
 * one stream queue here instead of racing each other to the append and retrying: in one process,
 * per-stream order is simply arrival order. (Across processes the expected-revision check still
 * decides, with retries.)
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  get size(): number {
    return this.tails.size;
  }
}
