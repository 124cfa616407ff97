import { Client } from 'pg';

/** Who runs a projection among the processes sharing its read models. */
export interface Lease {
  /** Takes the lease if no live process holds it; true while this process holds it. */
  tryAcquire(): Promise<boolean>;
  /** Called when a held lease is lost (its connection failed a heartbeat or dropped). */
  onLost(listener: () => void): void;
  release(): Promise<void>;
}

/**
 * Whether this process may run the work the lease guards: always without a lease; with one, when
 * it holds it. A database that cannot be reached means no (`onError` hears why): follow meanwhile.
 */
export async function holds(lease: Lease | null, onError: (error: unknown) => void): Promise<boolean> {
  if (!lease) return true;
  try {
    return await lease.tryAcquire();
  } catch (error) {
    onError(error);
    return false;
  }
}

/** Advisory locks of this class belong to projection runners (the second key is the projection's). */
const LOCK_CLASS = 72_604_231;
const HEARTBEAT_MS = 2_000;

/**
 * A PostgreSQL session advisory lock on a connection of its own. PostgreSQL releases it the moment
 * that session ends, so a holder that dies (SIGKILL, a lost host) frees it for the next process's
 * try, a couple of seconds later. The holder renews it by a heartbeat on the same connection: a
 * connection that stopped answering means the lease may be gone, and the holder stops applying
 * at once (a batch already in flight is still safe: applyBatch locks the checkpoint row).
 */
export class AdvisoryLease implements Lease {
  private client: Client | null = null;
  private held = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly url: string,
    private readonly name: string,
  ) {}

  async tryAcquire(): Promise<boolean> {
    if (this.held) return true;
    const client = await this.connect();
    const [{ locked }] = (
      await client.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, this.name])
    ).rows as Array<{ locked: boolean }>;
    if (!locked) return false;
    this.held = true;
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch(() => this.lose(client));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    return true;
  }

  onLost(listener: () => void): void {
    this.listeners.add(listener);
  }

  async release(): Promise<void> {
    this.stopHeartbeat();
    this.held = false;
    const client = this.client;
    this.client = null;
    // ending the session releases the lock
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({
      connectionString: this.url,
      keepAlive: true,
      application_name: `parley:lease:${this.name}`,
    });
    client.on('error', () => this.lose(client));
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private lose(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.stopHeartbeat();
    void client.end().catch(() => undefined);
    if (!this.held) return;
    this.held = false;
    for (const listener of this.listeners) listener();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
