import { Inject, Injectable } from '@nestjs/common';
import type { Topic } from '../../agents/agent.events';
import type { ServedContent } from '../../agents/deployment-content';
import { EmbeddingEndpoints } from '../../agents/endpoints/embedding-endpoints';
import type { RetrievalSettings } from '../../agents/runtime-settings';
import type { RetrievalFallback, TurnRetrieval } from '../../conversations/conversation.events';
import { CONFIG, type Config } from '../../platform/config/config';
import { EmbeddingsClient, EmbeddingsError } from '../../platform/embeddings/embeddings-client';
import { DEFAULT_MIN_SIMILARITY, FUSION_DEPTH, fuseRankings, nearestTopics } from '../retrieval/fusion';
import type { SearchHit, TopicIndex } from '../retrieval/topic-index';
import { normalise, TopicVectorJobs } from './topic-vector-jobs';
import { TopicVectorStore, type TopicVectorSet } from './topic-vector-store';

/** A deployment without vectors (or with vectors another model made) is looked up again at most this often. */
const RECHECK_MS = 1000;
/** Deployments whose vectors are kept in memory, and the bytes they may take; the least recently loaded go first. */
const CAPACITY = 100;
const MAX_BYTES = 256 * 1024 * 1024;

interface Entry {
  set: TopicVectorSet | null;
  /** Date.now() after which the store is asked again (Infinity: the set serves until a new one is stored) */
  staleAfter: number;
  loading: Promise<TopicVectorSet | null> | null;
}

export interface HybridHits {
  hits: SearchHit[];
  retrieval: TurnRetrieval;
}

/**
 * One hybrid turn's retrieval (docs/retrieval.md): the question's vector from the agent's
 * embeddings endpoint, within the setting's timeout; the deployment's topics ranked by cosine
 * similarity to it; that ranking fused with the lexical one (retrieval/fusion.ts). Whenever that
 * cannot be done as it should (the endpoint failed, timed out, answered garbage, is gone, or
 * answers with another model or dimension than the stored vectors, or the vectors are not stored
 * yet) the turn answers with the lexical ranking alone and says why. Vectors of two models or
 * dimensions are never compared.
 */
@Injectable()
export class HybridRetrieval {
  private readonly sets = new Map<string, Entry>();
  private bytes = 0;
  private readonly defaultTimeoutMs: number;

  constructor(
    private readonly store: TopicVectorStore,
    private readonly jobs: TopicVectorJobs,
    private readonly endpoints: EmbeddingEndpoints,
    @Inject(CONFIG) config: Config,
  ) {
    this.defaultTimeoutMs = config.hybridRetrieval.queryTimeoutMs;
    jobs.onStored((deploymentId) => this.forget(deploymentId));
  }

  async search(
    content: ServedContent,
    settings: RetrievalSettings,
    index: TopicIndex,
    topics: ReadonlyMap<string, Topic>,
    text: string,
    limit: number,
  ): Promise<HybridHits> {
    const lexical = index.search(text, FUSION_DEPTH);
    const fallback = (reason: RetrievalFallback): HybridHits => ({
      hits: lexical.slice(0, limit),
      retrieval: { mode: 'lexical', fallback_reason: reason },
    });
    if (content.draft) return fallback('draft');
    const endpoint = settings.endpoint !== undefined ? await this.endpoints.resolveRecent(settings.endpoint) : null;
    if (!endpoint) return fallback('endpoint_missing');
    const set = await this.vectorsOf(content.deploymentId);
    if (set === null) {
      this.jobs.request(content.agentId, content.deploymentId);
      return fallback('vectors_pending');
    }
    const client = new EmbeddingsClient({
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      model: endpoint.model,
      timeoutMs: settings.timeout_ms ?? this.defaultTimeoutMs,
    });
    let query: Float32Array;
    let model: string;
    try {
      const embedded = await client.embed([text]);
      [query] = embedded.vectors;
      model = embedded.model ?? endpoint.model;
    } catch (error) {
      if (error instanceof EmbeddingsError) return fallback(error.reason);
      throw error;
    }
    const mismatch: RetrievalFallback | null =
      query.length !== set.dimension ? 'dimension_mismatch' : model !== set.model ? 'model_mismatch' : null;
    if (mismatch) {
      // the endpoint changed since the vectors were made: made again behind this turn, once
      this.markStale(content.deploymentId);
      this.jobs.request(content.agentId, content.deploymentId, undefined, true);
      return fallback(mismatch);
    }
    const nearest = nearestTopics(normalise(query), set.vectors, FUSION_DEPTH).flatMap(({ index: i, similarity }) => {
      const topic = topics.get(set.topicIds[i]);
      return topic ? [{ topicId: topic.id, name: topic.name, similarity }] : [];
    });
    return {
      hits: fuseRankings(lexical, nearest, settings.min_similarity ?? DEFAULT_MIN_SIMILARITY, limit),
      retrieval: { mode: 'hybrid' },
    };
  }

  private async vectorsOf(deploymentId: string): Promise<TopicVectorSet | null> {
    const entry = this.sets.get(deploymentId);
    if (entry && (entry.loading || Date.now() < entry.staleAfter)) return entry.loading ?? entry.set;
    this.forget(deploymentId);
    const next: Entry = { set: null, staleAfter: 0, loading: this.store.latest(deploymentId) };
    this.sets.set(deploymentId, next);
    try {
      const set = await next.loading;
      if (this.sets.get(deploymentId) === next) {
        this.bytes += set?.vectors.byteLength ?? 0;
        Object.assign(next, { set, loading: null, staleAfter: set ? Infinity : Date.now() + RECHECK_MS });
        this.evict();
      }
      return set;
    } catch (error) {
      if (this.sets.get(deploymentId) === next) this.sets.delete(deploymentId);
      throw error;
    }
  }

  private evict(): void {
    while (this.sets.size > CAPACITY || this.bytes > MAX_BYTES) {
      const oldest = this.sets.keys().next().value;
      if (oldest === undefined) return;
      this.forget(oldest);
    }
  }

  private markStale(deploymentId: string): void {
    const entry = this.sets.get(deploymentId);
    if (entry && entry.staleAfter === Infinity) entry.staleAfter = Date.now() + RECHECK_MS;
  }

  private forget(deploymentId: string): void {
    const entry = this.sets.get(deploymentId);
    if (!entry) return;
    this.bytes -= entry.set?.vectors.byteLength ?? 0;
    this.sets.delete(deploymentId);
  }
}
