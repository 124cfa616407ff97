import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { DomainError } from '../platform/errors/domain-error';
import type { Lease } from '../subscriptions/lease-session';
import type { Projection } from './projection';
import { ProjectionRunner, type RunnerStatus } from './projection-runner';
import { readModelLagging } from './failures/read-model-lagging';
import type { ReadModelRegistry } from './generations/read-model-registry';
import type { ApplyThread } from './apply/thread-applier';
import { LogFeed } from '../subscriptions/log-feed';

export interface ReadModelStatus extends RunnerStatus {
  lagEvents: number | null;
  /** open dead letters: events this read model set aside (null when the platform database did not answer) */
  deadLetters: number | null;
  /** it serves, without what its dead-lettered events would have changed (docs/dead-letters.md) */
  degraded: boolean;
}

/** The read side of the app: one runner per projection, and read-your-writes for controllers. */
export class ReadModels {
  private readonly runners = new Map<string, ProjectionRunner>();
  readonly feed: LogFeed;
  private readonly ownFeed: boolean;

  constructor(
    projections: Projection[],
    private readonly store: EventStore,
    private readonly registry: ReadModelRegistry,
    logger: Logger,
    private readonly timeoutMs: number,
    /** Where several processes share the read models, each projection's lease (one applies, the others follow). */
    leaseFor: (name: string) => Lease | null = () => null,
    /** SQLite read models: the thread that applies the app's own projections; null applies every batch on this thread. */
    private readonly applyThread: ApplyThread | null = null,
    /**
     * The process's one reader of the log, shared with the process managers (its owner starts it
     * once every subscriber has joined); without one, these read models get a reader of their own.
     */
    feed: LogFeed | null = null,
  ) {
    this.ownFeed = feed === null;
    this.feed = feed ?? new LogFeed(store);
    for (const projection of projections) {
      if (this.runners.has(projection.name)) throw new Error(`two projections are named ${projection.name}`);
      this.runners.set(
        projection.name,
        new ProjectionRunner(
          projection,
          store,
          registry,
          logger,
          leaseFor(`projection:${projection.name}`),
          undefined,
          applyThread,
          this.feed,
        ),
      );
    }
  }

  async start(): Promise<void> {
    for (const runner of this.runners.values()) await runner.start();
    if (this.ownFeed) await this.feed.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.runners.values()].map((runner) => runner.stop()));
    if (this.ownFeed) await this.feed.stop();
    await this.applyThread?.close();
  }

  /** The data source a query reads. 503 while the read model's first generation is still building. */
  source(name: string): DataSource {
    const source = this.runner(name).dataSource;
    if (!source)
      throw new DomainError(
        'READ_MODEL_BUILDING',
        `the ${name} read model is being built; retry shortly`,
        503,
        null,
        [],
        { 'retry-after': '1' },
      );
    return source;
  }

  /**
   * Read-your-writes: waits until every named read model has applied the log up to `position`.
   * Bounded: past the timeout the caller gets 503 READ_MODEL_LAGGING (its write did happen).
   */
  async waitFor(position: Position | null | undefined, names: string[]): Promise<void> {
    if (!position) return;
    const waits = names.map((name) => this.runner(name).waitFor(position));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(readModelLagging()), this.timeoutMs);
    });
    try {
      await Promise.race([Promise.all(waits.map((wait) => wait.promise)), timeout]);
    } finally {
      clearTimeout(timer);
      for (const wait of waits) wait.cancel();
    }
  }

  onApplied(name: string, listener: (batch: RecordedEvent[]) => void): () => void {
    return this.runner(name).onApplied(listener);
  }

  async status(): Promise<ReadModelStatus[]> {
    const open = await this.registry.deadLetters.openCounts().catch(() => null);
    return Promise.all(
      [...this.runners.values()].map(async (runner) => {
        const status = runner.status();
        const deadLetters = open ? (open.get(`projection:${status.name}`) ?? 0) : null;
        return {
          ...status,
          lagEvents: await this.store.countAfter(status.position),
          deadLetters,
          degraded: (deadLetters ?? 0) > 0,
        };
      }),
    );
  }

  private runner(name: string): ProjectionRunner {
    const runner = this.runners.get(name);
    if (!runner) throw new Error(`no read model named ${name}`);
    return runner;
  }
}
