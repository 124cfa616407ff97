import { Injectable } from '@nestjs/common';
import { RunsBehindTheLog, type BehindTheLogWork } from '../../process-managers/behind-the-log';
import type { ProcessManager } from '../../process-managers/process-manager';
import { TopicVectorJobs } from './topic-vector-jobs';
import { topicVectorsProcessManager } from './topic-vectors.process-manager';

/** Hybrid retrieval behind the log: the process manager that embeds each new deployment's topics. */
@Injectable()
@RunsBehindTheLog()
export class TopicVectorsBehindTheLog implements BehindTheLogWork {
  readonly processManagers: ProcessManager[];

  constructor(jobs: TopicVectorJobs) {
    this.processManagers = [topicVectorsProcessManager(jobs)];
  }
}
