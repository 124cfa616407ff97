import path from 'node:path';
import { startReadyWorker } from '../../platform/threads/start-worker';
import { WorkerCalls } from '../../platform/threads/worker-calls';
import type { CheckpointStats } from './checkpointer-thread';
import type { SyncMode } from './schema';

export type { CheckpointStats };

/** Often enough that a busy log's WAL stays a few MiB; an idle round is a lock and two reads. */
const CHECKPOINT_INTERVAL_MS = 100;

/** Half again the commits' own checkpoint mark (4,000 pages, schema.ts): about 24 MiB of WAL. */
const RESTART_FRAMES = 6000;

/**
 * The event log's WAL checkpoints, on a thread of their own (checkpointer-thread.ts). Nothing
 * depends on it to stay correct: if it dies, the commits' own checkpoints (schema.ts) bound the
 * WAL, back in the commits' path.
 */
export class Checkpointer {
  private constructor(private readonly calls: WorkerCalls<{ id: number; stats: CheckpointStats }>) {}

  static async start(
    file: string,
    sync: SyncMode,
    intervalMs = CHECKPOINT_INTERVAL_MS,
    restartFrames = RESTART_FRAMES,
  ): Promise<Checkpointer> {
    const { worker } = await startReadyWorker(path.join(__dirname, 'checkpointer-thread'), {
      workerData: { file, sync, intervalMs, restartFrames },
    });
    return new Checkpointer(new WorkerCalls(worker, 'event store checkpointer thread'));
  }

  async stats(): Promise<CheckpointStats> {
    return (await this.calls.call({ stats: true })).stats;
  }

  /** Stops the rounds; the last connection to close checkpoints what is left (SQLite does). */
  close(): Promise<void> {
    return this.calls.close({ close: true });
  }
}
