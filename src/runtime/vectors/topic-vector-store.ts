import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { PLATFORM_DB } from '../../platform/database/platform-database';
import { TopicVectorsRow } from './topic-vectors.entity';

/** A deployment's topic vectors, as the runtime ranks with them. */
export interface TopicVectorSet {
  deploymentId: string;
  agentId: string;
  /** the model that made them (what the endpoint said answered, else what was asked for) */
  model: string;
  dimension: number;
  /** the endpoint's base URL and the model asked for (reuse stays within one) */
  space: string;
  topicIds: readonly string[];
  textHashes: readonly string[];
  /** topicIds.length vectors of `dimension`, each of unit length (a dot product is the cosine) */
  vectors: Float32Array;
  computedAt: string;
}

/**
 * The topic vectors of deployments, in the platform database (so they survive a restart and are
 * shared by the processes of a cluster). Written once per deployment and model by the jobs that
 * embed them (topic-vector-jobs.ts), read by the runtime once per deployment and process.
 */
@Injectable()
export class TopicVectorStore {
  constructor(@Inject(PLATFORM_DB) private readonly platform: DataSource) {}

  private get repo() {
    return this.platform.getRepository(TopicVectorsRow);
  }

  async save(set: TopicVectorSet): Promise<void> {
    await this.repo.save(toRow(set));
  }

  /** The newest vectors of a deployment, or null when none were stored (yet). */
  async latest(deploymentId: string): Promise<TopicVectorSet | null> {
    const row = await this.repo.findOne({ where: { deploymentId }, order: { computedAt: 'DESC' } });
    return row ? fromRow(row) : null;
  }

  /** The agent's newest vectors in `space` (another deployment's, whose unchanged topics need no new call). */
  async newestOfAgent(agentId: string, space: string): Promise<TopicVectorSet | null> {
    const row = await this.repo.findOne({ where: { agentId, space }, order: { computedAt: 'DESC' } });
    return row ? fromRow(row) : null;
  }
}

function toRow(set: TopicVectorSet): TopicVectorsRow {
  const bytes = Buffer.from(set.vectors.buffer, set.vectors.byteOffset, set.vectors.byteLength);
  return Object.assign(new TopicVectorsRow(), {
    deploymentId: set.deploymentId,
    model: set.model,
    dimension: set.dimension,
    agentId: set.agentId,
    space: set.space,
    topicIds: JSON.stringify(set.topicIds),
    textHashes: JSON.stringify(set.textHashes),
    vectors: bytes.toString('base64'),
    computedAt: set.computedAt,
  });
}

function fromRow(row: TopicVectorsRow): TopicVectorSet {
  const bytes = Buffer.from(row.vectors, 'base64');
  // a copy into its own buffer: aligned for Float32Array whatever the pool's offset
  const vectors = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(vectors.buffer).set(bytes);
  return {
    deploymentId: row.deploymentId,
    agentId: row.agentId,
    model: row.model,
    dimension: row.dimension,
    space: row.space,
    topicIds: JSON.parse(row.topicIds) as string[],
    textHashes: JSON.parse(row.textHashes) as string[],
    vectors,
    computedAt: row.computedAt,
  };
}
