import { Client } from 'pg';

/** Who runs a projection or a process manager among the processes sharing the platform database. */
export interface Lease {
  /** Takes the lease if no live process holds it; true while this process holds it. */
  tryAcquire(): Promise<boolean>;
  /** Called when a held lease is lost (its session failed a heartbeat or dropped). */
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

/** Advisory locks of this class are Parley's leases (the second key is the lease's name, hashed). */
const LOCK_CLASS = 72_604_231;
const HEARTBEAT_MS = 2_000;

/**
 * Every lease of this process, as PostgreSQL session advisory locks on one connection: a process
 * runs some thirty projections and managers, and a connection each would take 90 of PostgreSQL's
 * default 100 for a cluster of three. PostgreSQL releases a session's locks the moment it ends,
 * so a process that dies (SIGKILL, a lost host) frees all of its leases for the others' next try,
 * a couple of seconds later. One heartbeat renews them all: a connection that stopped answering
 * means they may be gone, and every holder stops at once (a batch already in flight is still
 * safe: applyBatch locks the checkpoint row). The next try connects again.
 */
export class LeaseSession {
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Held leases by name: a session's advisory locks are reentrant, so exclusion within the process is kept here. */
  private readonly held = new Map<string, SessionLease>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly applicationName = 'parley:leases',
  ) {}

  /** The lease called `name`, on this session. */
  lease(name: string): Lease {
    return new SessionLease(this, name);
  }

  /** Ends the session: every lease it held is free for another process at once. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.drop();
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  /** @internal SessionLease's */
  async acquire(lease: SessionLease): Promise<boolean> {
    const holder = this.held.get(lease.name);
    if (holder) return holder === lease;
    const client = await this.connect();
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
      [LOCK_CLASS, lease.name],
    );
    if (!rows[0].locked) return false;
    // lost while it answered: the lock went with the session
    if (this.client !== client) return false;
    if (this.held.has(lease.name)) {
      // another lease of the same name took it meanwhile: the session holds it twice, once is enough
      await client
        .query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, lease.name])
        .catch(() => undefined);
      return this.held.get(lease.name) === lease;
    }
    this.held.set(lease.name, lease);
    this.startHeartbeat(client);
    return true;
  }

  /** @internal SessionLease's */
  async release(lease: SessionLease): Promise<void> {
    if (this.held.get(lease.name) !== lease) return;
    this.held.delete(lease.name);
    if (this.held.size === 0) this.stopHeartbeat();
    await this.client
      ?.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, lease.name])
      .catch(() => undefined);
  }

  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('the lease session is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const client = new Client({ connectionString: this.url, keepAlive: true, application_name: this.applicationName });
    client.on('error', () => this.lose(client));
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('the lease session is closed');
    }
    this.client = client;
    return client;
  }

  private startHeartbeat(client: Client): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch(() => this.lose(client));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private lose(client: Client): void {
    if (this.client !== client) return;
    this.drop();
    void client.end().catch(() => undefined);
    const lost = [...this.held.values()];
    this.held.clear();
    for (const lease of lost) lease.lost();
  }

  private drop(): void {
    this.client = null;
    this.stopHeartbeat();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

/** One named lease of a LeaseSession. */
class SessionLease implements Lease {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly session: LeaseSession,
    readonly name: string,
  ) {}

  tryAcquire(): Promise<boolean> {
    return this.session.acquire(this);
  }

  onLost(listener: () => void): void {
    this.listeners.add(listener);
  }

  release(): Promise<void> {
    return this.session.release(this);
  }

  /** @internal the session's connection failed while this lease was held */
  lost(): void {
    for (const listener of this.listeners) listener();
  }
}
