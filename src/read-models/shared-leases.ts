import type { Config } from '../platform/config/config';
import { AdvisoryLease, type Lease } from './postgres/advisory-lease';

/** Leases in the shared PostgreSQL database; none when the process runs alone on its SQLite files. */
export function sharedLeases(config: Config): ((name: string) => Lease | null) | undefined {
  const url = config.databaseUrl;
  return url === null ? undefined : (name) => new AdvisoryLease(url, name);
}
