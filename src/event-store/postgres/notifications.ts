import { Client } from 'pg';
import { NOTIFY_CHANNEL } from './append-function';

/**
 * LISTEN on a connection of its own: notifications arrive on an idle session, and a pooled
 * connection is handed to queries and transactions. When the connection fails, it connects again
 * after `retryMs`; meanwhile the poll (wake-ups.ts) finds what was committed, and `onReconnect`
 * makes every reader look once more, for what was notified while it was down.
 */
export class LogNotifications {
  private client: Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly connectionString: string,
    private readonly retryMs: number,
    private readonly onCommitted: (xid: bigint) => void,
    private readonly onReconnect: () => void,
  ) {}

  static async start(
    connectionString: string,
    retryMs: number,
    onCommitted: (xid: bigint) => void,
    onReconnect: () => void,
  ): Promise<LogNotifications> {
    const notifications = new LogNotifications(connectionString, retryMs, onCommitted, onReconnect);
    await notifications.connect();
    return notifications;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.connectionString,
      application_name: 'parley:event-store-listen',
    });
    client.on('notification', (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload || !/^\d+$/.test(message.payload)) return;
      this.onCommitted(BigInt(message.payload));
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    try {
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().then(
        () => this.onReconnect(),
        () => this.scheduleReconnect(),
      );
    }, this.retryMs);
  }
}
