import type { OnApplicationShutdown } from '@nestjs/common';
import type { Config } from '../platform/config/config';
import { LeaseSession, type Lease } from './lease-session';

/**
 * The process's leases in the shared PostgreSQL database, for its projections and process
 * managers alike, all on one connection; none when the process runs alone on its SQLite files.
 * Provided once per app; its connection ends when the app shuts down, after the runners stop.
 */
export class SharedLeases implements OnApplicationShutdown {
  private readonly session: LeaseSession | null;

  constructor(config: Config) {
    const url = config.databaseUrl;
    this.session = url === null ? null : new LeaseSession(url);
  }

  /** The lease for `name`, or undefined where nothing is shared (every process leads). */
  get leaseFor(): ((name: string) => Lease) | undefined {
    const session = this.session;
    return session ? (name) => session.lease(name) : undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.session?.close();
  }
}
