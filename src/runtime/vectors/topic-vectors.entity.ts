import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The vectors of a deployment's active topics, as one embeddings model made them (hybrid
 * retrieval, docs/retrieval.md). Derived data in the platform database, like alert evaluations:
 * not history anyone replays, and made again from the deployment and the endpoint when lost.
 * One row per deployment, model and dimension; the newest serves.
 */
@Entity('topic_vectors')
@Index('topic_vectors_agent', ['agentId', 'space'])
export class TopicVectorsRow {
  @PrimaryColumn('text', { name: 'deployment_id' }) deploymentId: string;
  /** the model the endpoint said answered (else the one asked for) */
  @PrimaryColumn('text') model: string;
  @PrimaryColumn('integer') dimension: number;
  @Column('text', { name: 'agent_id' }) agentId: string;
  /** the endpoint's base URL and the model asked for: vectors of another agent's deployment are reused only within one space */
  @Column('text') space: string;
  /** JSON: the topic ids, in the order of the vectors */
  @Column('text', { name: 'topic_ids' }) topicIds: string;
  /** JSON: a hash of each topic's embedded text, so a later deployment re-embeds only the topics that changed */
  @Column('text', { name: 'text_hashes' }) textHashes: string;
  /** base64 of the little-endian float32 vectors, unit length, one after another */
  @Column('text') vectors: string;
  @Column('text', { name: 'computed_at' }) computedAt: string;
}
