import type { Worker } from 'node:worker_threads';

interface Pending<R> {
  resolve(reply: R): void;
  reject(error: Error): void;
}

/**
 * Request and reply over a worker thread: each call posts `{ id, ...message }` and settles with the
 * reply carrying that id. If the thread dies, every call waiting on it and every later one fails
 * with the reason. An idle worker never keeps the process alive; one with calls in flight does.
 */
export class WorkerCalls<R extends { id: number }> {
  private readonly pending = new Map<number, Pending<R>>();
  private nextId = 0;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(
    private readonly worker: Worker,
    /** what the thread is, for the errors of a thread that exited */
    private readonly name: string,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (reply: R) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.settled(reply.id);
      waiting.resolve(reply);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the ${name} exited (code ${code})`)));
    worker.unref();
  }

  /** Why calls fail now, or null while the thread runs. */
  get broken(): Error | null {
    return this.failure;
  }

  call(message: object): Promise<R> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...message, id });
    });
  }

  /** Posts the thread's own closing message and waits until it has exited; later calls fail. */
  async close(message: object): Promise<void> {
    if (!this.failure) {
      // waiting for the thread to finish must keep the process alive
      this.worker.ref();
      this.worker.postMessage(message);
      this.failure = new Error(`the ${this.name} is closed`);
    }
    await this.exited;
  }

  /** Stops the thread at once: what it was doing is lost (its callers get the exit as their error). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const [id, waiting] of [...this.pending]) {
      this.settled(id);
      waiting.reject(error);
    }
  }
}
