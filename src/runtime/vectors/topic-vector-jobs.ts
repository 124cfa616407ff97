import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Topic } from '../../agents/agent.events';
import { DeploymentContent, type ServedContent } from '../../agents/deployment-content';
import { EmbeddingEndpoints, type ResolvedEmbeddingEndpoint } from '../../agents/endpoints/embedding-endpoints';
import { retrievalFor } from '../../agents/runtime-settings';
import { Clock } from '../../platform/clock/clock';
import { CONFIG, type Config } from '../../platform/config/config';
import { EmbeddingsClient, type Embedded } from '../../platform/embeddings/embeddings-client';
import { LOGGER } from '../../platform/logging/logger';
import type { Position } from '../../event-store/position';
import { ReadModels } from '../../read-models/read-models.service';
import { AGENTS_READ_MODEL } from '../../../projections/agents/queries';
import { AGENT_SETTINGS_READ_MODEL } from '../../../projections/agent-settings/queries';
import { AGENT_TOOLS_READ_MODEL } from '../../../projections/agent-tools/queries';
import { TopicVectorStore, type TopicVectorSet } from './topic-vector-store';

/** Topics per embeddings request. */
const EMBED_BATCH = 64;
/** Jobs running at once in the process, whatever their endpoints. */
const MAX_RUNNING = 4;
/** A deployment whose job failed is not tried again sooner than this (a turn may ask again after). */
const RETRY_AFTER_MS = 60_000;

/** The text a topic is embedded from: what a user's question would be compared with. */
function topicText(topic: Pick<Topic, 'name' | 'exampleQueries' | 'content'>): string {
  return [topic.name, ...topic.exampleQueries, topic.content].join('\n');
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64');

/** The space of an endpoint: vectors are reused only between deployments embedded in the same one. */
const spaceOf = (endpoint: Pick<ResolvedEmbeddingEndpoint, 'baseUrl' | 'model'>) =>
  `${endpoint.baseUrl} ${endpoint.model}`;

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalise(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  }
  return vector;
}

/**
 * Embeds the active topics of hybrid deployments and stores their vectors (topic-vector-store.ts).
 * Asked by the process manager when a deployment is made (topic-vectors.process-manager.ts) and by
 * the runtime when a hybrid turn finds no usable vectors (a restart before they were stored, the
 * endpoint's model changed): never inside a turn, which answers lexically meanwhile.
 *
 * A slow or hostile endpoint holds back only its own deployments: jobs of one endpoint run one
 * after another, at most four jobs run at once, every request is bounded in time and size
 * (RETRIEVAL_EMBEDDING_BATCH_TIMEOUT_MS, the client's body bound), and a job never holds up a
 * deployment or the process manager that asked for it. Topics whose text an earlier deployment of
 * the agent embedded in the same space are not sent again.
 */
@Injectable()
export class TopicVectorJobs {
  private readonly pending = new Map<string, Promise<void>>();
  private readonly failedAt = new Map<string, number>();
  private readonly lanes = new Map<string, Promise<unknown>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly listeners = new Set<(deploymentId: string) => void>();

  constructor(
    private readonly deployments: DeploymentContent,
    private readonly endpoints: EmbeddingEndpoints,
    private readonly store: TopicVectorStore,
    private readonly readModels: ReadModels,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Told each time a deployment's vectors are stored (the runtime's cache forgets what it had). */
  onStored(listener: (deploymentId: string) => void): void {
    this.listeners.add(listener);
  }

  /**
   * Starts embedding a deployment's topics unless a job for it runs, or failed within a minute.
   * `made`: the position of the event that made the deployment (a new deployment, tried whatever
   * failed before), which the read models its content comes from must pass first. `fresh`: no
   * vector of an earlier deployment is reused (the endpoint answers with another model now).
   * Returns at once.
   */
  request(agentId: string, deploymentId: string, made?: Position, fresh = false): void {
    if (this.pending.has(deploymentId)) return;
    const failed = this.failedAt.get(deploymentId);
    if (made === undefined && failed !== undefined && Date.now() - failed < RETRY_AFTER_MS) return;
    const job = this.run(agentId, deploymentId, made, fresh)
      .then(
        () => void this.failedAt.delete(deploymentId),
        (error: unknown) => {
          this.failedAt.set(deploymentId, Date.now());
          if (this.failedAt.size > 10_000) this.failedAt.delete(this.failedAt.keys().next().value!);
          this.logger.warn(
            { err: error, agentId, deploymentId },
            "could not embed the deployment's topics; its turns answer lexically",
          );
        },
      )
      .finally(() => this.pending.delete(deploymentId));
    this.pending.set(deploymentId, job);
  }

  private async run(agentId: string, deploymentId: string, made: Position | undefined, fresh: boolean): Promise<void> {
    // the deployment, its settings and tools, as DeploymentContent reads them
    await this.readModels.waitFor(made, [AGENTS_READ_MODEL, AGENT_SETTINGS_READ_MODEL, AGENT_TOOLS_READ_MODEL]);
    const content = await this.deployments.ofDeployment(agentId, deploymentId);
    const retrieval = retrievalFor(content.settings ?? {}, content.environment);
    if (retrieval.mode !== 'hybrid' || retrieval.endpoint === undefined) return;
    const name = retrieval.endpoint;
    // one endpoint's jobs one after another: a slow one delays only the deployments that name it
    const before = this.lanes.get(name) ?? Promise.resolve();
    const job = before.catch(() => undefined).then(() => this.slot(() => this.embed(content, name, fresh)));
    this.lanes.set(name, job);
    try {
      await job;
    } finally {
      if (this.lanes.get(name) === job) this.lanes.delete(name);
    }
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= MAX_RUNNING) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async embed(content: ServedContent, endpointName: string, fresh: boolean): Promise<void> {
    const endpoint = await this.endpoints.resolve(endpointName);
    // the turns say endpoint_missing; asked again at most once a minute
    if (!endpoint) throw new Error(`no embeddings endpoint is named ${endpointName}`);
    const topics = content.topics.filter((t) => t.isActive);
    const texts = topics.map(topicText);
    const hashes = texts.map(hashOf);
    const space = spaceOf(endpoint);
    const client = new EmbeddingsClient({
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      model: endpoint.model,
      timeoutMs: this.config.hybridRetrieval.batchTimeoutMs,
    });

    // what an earlier deployment of the agent embedded in this space, by text
    const earlier = fresh ? null : await this.store.newestOfAgent(content.agentId, space);
    const known = new Map<string, Float32Array>();
    if (earlier)
      earlier.textHashes.forEach((hash, i) =>
        known.set(hash, earlier.vectors.subarray(i * earlier.dimension, (i + 1) * earlier.dimension)),
      );
    let made = await this.embedMissing(client, texts, hashes, known);
    // the endpoint now answers with another model or dimension than the reused vectors: none reused
    if (
      earlier &&
      made.sample &&
      (made.sample.dimension !== earlier.dimension || (made.sample.model ?? endpoint.model) !== earlier.model)
    )
      made = await this.embedMissing(client, texts, hashes, new Map());
    const model = made.sample ? (made.sample.model ?? endpoint.model) : (earlier?.model ?? endpoint.model);
    const dimension = made.sample ? made.sample.dimension : (earlier?.dimension ?? 0);
    const vectors = new Float32Array(topics.length * dimension);
    made.vectors.forEach((vector, i) => vectors.set(vector, i * dimension));
    const set: TopicVectorSet = {
      deploymentId: content.deploymentId,
      agentId: content.agentId,
      model,
      dimension,
      space,
      topicIds: topics.map((t) => t.id),
      textHashes: hashes,
      vectors,
      computedAt: this.clock.nowIso(),
    };
    await this.store.save(set);
    for (const listener of this.listeners) listener(content.deploymentId);
  }

  /** Every topic's unit vector: known ones as they are, the others embedded in batches. */
  private async embedMissing(
    client: EmbeddingsClient,
    texts: string[],
    hashes: string[],
    known: ReadonlyMap<string, Float32Array>,
  ): Promise<{ vectors: Float32Array[]; sample: Omit<Embedded, 'vectors'> | null }> {
    const vectors: Float32Array[] = hashes.map((hash) => known.get(hash)!);
    const missing = hashes.flatMap((hash, i) => (known.has(hash) ? [] : [i]));
    let sample: Omit<Embedded, 'vectors'> | null = null;
    for (let start = 0; start < missing.length; start += EMBED_BATCH) {
      const batch = missing.slice(start, start + EMBED_BATCH);
      const embedded = await client.embed(batch.map((i) => texts[i]));
      // never two models or dimensions in one set
      if (sample && (embedded.dimension !== sample.dimension || embedded.model !== sample.model))
        throw new Error('the embeddings endpoint changed model or dimension while the topics were embedded');
      sample = { model: embedded.model, dimension: embedded.dimension };
      batch.forEach((i, j) => (vectors[i] = normalise(embedded.vectors[j])));
    }
    return { vectors, sample };
  }
}
