import type { PlatformTables } from '../platform/database/platform-tables';
import { AlertEvaluation } from './alert-evaluation.entity';
import { AlertEvaluations1763856000000, PgAlertEvaluations1763856000000 } from './alert-evaluation.migration';

/** The alert evaluations' table in the platform database (src/app.database.ts lists it). */
export const ALERT_TABLES: PlatformTables = {
  entities: [AlertEvaluation],
  sqliteMigrations: [AlertEvaluations1763856000000],
  postgresMigrations: [PgAlertEvaluations1763856000000],
};
