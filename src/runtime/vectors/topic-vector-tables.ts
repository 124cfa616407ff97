import type { PlatformTables } from '../../platform/database/platform-tables';
import { TopicVectorsRow } from './topic-vectors.entity';
import { PgTopicVectors1767225600000, TopicVectors1767225600000 } from './topic-vectors.migration';

/** The topic vectors' table in the platform database (src/app.database.ts lists it). */
export const TOPIC_VECTOR_TABLES: PlatformTables = {
  entities: [TopicVectorsRow],
  sqliteMigrations: [TopicVectors1767225600000],
  postgresMigrations: [PgTopicVectors1767225600000],
};
