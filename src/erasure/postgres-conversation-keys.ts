import { Pool } from 'pg';
import type { ServerSecret } from '../platform/auth/server-secret';
import { newDataKey, unwrapKey, wrapKey, type ConversationKey, type ConversationKeyStore } from './conversation-keys';

/**
 * The key store every process of a cluster shares: a table in PostgreSQL. An erasure deletes the
 * wrapped key (a tombstone row stays) and vacuums the table, so the live database keeps no copy;
 * PostgreSQL's WAL and base backups keep it until they are recycled (docs/privacy.md).
 */
export class PostgresConversationKeyStore implements ConversationKeyStore {
  private constructor(
    private readonly pool: Pool,
    private readonly secret: ServerSecret,
  ) {}

  static async open(url: string, secret: ServerSecret): Promise<PostgresConversationKeyStore> {
    const pool = new Pool({ connectionString: url, max: 2, application_name: 'parley:conversation-keys' });
    // an idle connection that fails leaves the pool; the next query connects anew
    pool.on('error', () => undefined);
    try {
      await pool.query(`CREATE TABLE IF NOT EXISTS parley_conversation_key (
        conversation_id TEXT PRIMARY KEY, wrapped TEXT, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), erased_at TEXT)`);
    } catch (error) {
      // two processes starting at once race on the catalogue: the table is there either way
      if (!['23505', '42P07'].includes(String((error as { code?: string }).code))) throw error;
    }
    return new PostgresConversationKeyStore(pool, secret);
  }

  async find(ids: readonly string[]): Promise<Map<string, ConversationKey>> {
    const found = new Map<string, ConversationKey>();
    if (ids.length === 0) return found;
    const { rows } = await this.pool.query<{ id: string; wrapped: string | null }>(
      'SELECT conversation_id AS id, wrapped FROM parley_conversation_key WHERE conversation_id = ANY ($1::text[])',
      [ids],
    );
    for (const row of rows) found.set(row.id, row.wrapped === null ? 'erased' : unwrapKey(this.secret, row.wrapped));
    return found;
  }

  async create(id: string): Promise<ConversationKey> {
    await this.pool.query(
      'INSERT INTO parley_conversation_key (conversation_id, wrapped) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, wrapKey(this.secret, newDataKey())],
    );
    return (await this.find([id])).get(id)!;
  }

  async erase(id: string, at: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ had: boolean }>(
      `WITH before AS (SELECT wrapped IS NOT NULL AS had FROM parley_conversation_key WHERE conversation_id = $1)
       INSERT INTO parley_conversation_key (conversation_id, wrapped, erased_at) VALUES ($1, NULL, $2)
       ON CONFLICT (conversation_id) DO UPDATE SET wrapped = NULL, erased_at = coalesce(parley_conversation_key.erased_at, $2)
       RETURNING (SELECT had FROM before) AS had`,
      [id, at],
    );
    // the old row version holds the wrapped key until a vacuum reclaims it
    await this.pool.query('VACUUM parley_conversation_key');
    return Boolean(rows[0]?.had);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
