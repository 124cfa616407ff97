import type { EventStore } from '../../event-store/event-store.port';
import { conflict, notFound } from '../../platform/errors/domain-error';
import type { Projection } from '../projection';
import { rebuild, type RebuildReport } from './rebuild';
import type { ReadModelRegistry } from './read-model-registry';
import { readModelStatus, type GenerationStatus } from '../status';

export interface RebuildJob {
  name: string;
  state: 'running' | 'done' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  report: RebuildReport | null;
  error: string | null;
}

/**
 * Rebuilds asked for over the operator API (what `npm run projections -- rebuild` does, inside the
 * running app): each runs in the background, since a rebuild reads the whole log, and its progress
 * is the building generation's lag in the status. One at a time per read model; the last job of
 * each name is kept so a page can show how it ended.
 */
export class RebuildJobs {
  private readonly jobs = new Map<string, RebuildJob>();

  constructor(
    private readonly projections: Projection[],
    private readonly store: EventStore,
    private readonly registry: ReadModelRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(name: string): RebuildJob {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw notFound('READ_MODEL_NOT_FOUND', `no read model named ${name}`);
    if (this.jobs.get(name)?.state === 'running')
      throw conflict('REBUILD_RUNNING', `a rebuild of ${name} is under way`, this.jobs.get(name));
    const job: RebuildJob = {
      name,
      state: 'running',
      startedAt: this.now().toISOString(),
      finishedAt: null,
      report: null,
      error: null,
    };
    this.jobs.set(name, job);
    this.running.add(
      rebuild(projection, this.store, this.registry).then(
        (report) => Object.assign(job, { state: 'done', report, finishedAt: this.now().toISOString() }),
        (error: unknown) =>
          Object.assign(job, {
            state: 'failed',
            error: error instanceof Error ? error.message : String(error),
            finishedAt: this.now().toISOString(),
          }),
      ),
    );
    return { ...job };
  }

  /** Every generation of the catalogue's read models, a building one included (its lag is the rebuild's progress). */
  generations(): Promise<GenerationStatus[]> {
    return readModelStatus(this.projections, this.store, this.registry);
  }

  list(): RebuildJob[] {
    return [...this.jobs.values()].map((job) => ({ ...job }));
  }

  /** Nest calls this before closing the store: a rebuild must not outlive what it reads. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private readonly running = new Set<Promise<unknown>>();
}
