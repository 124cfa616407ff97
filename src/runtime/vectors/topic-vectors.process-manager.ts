import type { DeploymentRecord } from '../../agents/agent.events';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { ProcessManager } from '../../process-managers/process-manager';
import type { TopicVectorJobs } from './topic-vector-jobs';

const TOPIC_VECTORS_PROCESS = 'topic-vectors';

/**
 * Embeds each new deployment's topics when its agent retrieves in hybrid mode (docs/retrieval.md):
 * a merge's sandbox deployment and every promotion. It only starts the job (topic-vector-jobs.ts)
 * and returns, so a slow embeddings endpoint holds back neither this manager nor any other
 * tenant's deployment; the deployment serves at once, lexically until its vectors are stored. A
 * job a crash cut short is asked again by the deployment's first hybrid turn that finds no vectors.
 */
export function topicVectorsProcessManager(jobs: Pick<TopicVectorJobs, 'request'>): ProcessManager {
  return {
    name: TOPIC_VECTORS_PROCESS,
    handles: {
      DeploymentCreated: async (event: RecordedEvent<{ agentId: string; deployment: DeploymentRecord }>) => {
        jobs.request(event.data.agentId, event.data.deployment.deploymentId, event.position);
      },
    },
    // hybrid retrieval is new: no deployment made before it has vectors owed
    startsAtHead: true,
    // no read waits for vectors: the deployment answers lexically until they are stored
    awaitedByReads: false,
  };
}
