import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = (collate: string) =>
  `deployment_id TEXT${collate} NOT NULL, model TEXT${collate} NOT NULL, dimension INTEGER NOT NULL,
   agent_id TEXT${collate} NOT NULL, space TEXT${collate} NOT NULL, topic_ids TEXT NOT NULL,
   text_hashes TEXT NOT NULL, vectors TEXT NOT NULL, computed_at TEXT${collate} NOT NULL,
   PRIMARY KEY (deployment_id, model, dimension)`;

/** The platform table of deployments' topic vectors (topic-vectors.entity.ts). */
export class TopicVectors1767225600000 implements MigrationInterface {
  name = 'TopicVectors1767225600000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE topic_vectors (${COLUMNS('')})`);
    await q.query('CREATE INDEX topic_vectors_agent ON topic_vectors (agent_id, space)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE topic_vectors');
  }
}

/** The same table on PostgreSQL (postgres-migrations.ts): text compared byte-wise, as SQLite does. */
export class PgTopicVectors1767225600000 implements MigrationInterface {
  name = 'PgTopicVectors1767225600000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE topic_vectors (${COLUMNS(' COLLATE "C"')})`);
    await q.query('CREATE INDEX topic_vectors_agent ON topic_vectors (agent_id, space)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE topic_vectors');
  }
}
