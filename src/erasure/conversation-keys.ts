import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ServerSecret } from '../platform/auth/server-secret';

/** The app's key store (open-key-store.ts). */
export const CONVERSATION_KEYS = Symbol('ConversationKeyStore');

/** A conversation's data key, or the mark that it was destroyed. */
export type ConversationKey = Buffer | 'erased';

/**
 * Where each conversation's data key is kept, outside the log (contract §24). Keys rest wrapped
 * under the server secret; erasing a conversation replaces its key with a tombstone, so a late
 * event of it is never sealed under a new key and so readable again.
 */
export interface ConversationKeyStore {
  /** The keys of these conversations that exist (a tombstone reads `erased`); absent: never made. */
  find(ids: readonly string[]): Promise<Map<string, ConversationKey>>;
  /** The conversation's key, made now if it has none; `erased` after erasure. */
  create(id: string): Promise<ConversationKey>;
  /** Destroys the key (a tombstone stays) and scrubs what the store's files kept of it; true if it had one. */
  erase(id: string, at: string): Promise<boolean>;
  close(): Promise<void>;
}

export const newDataKey = (): Buffer => randomBytes(32);
export const wrapKey = (secret: ServerSecret, key: Buffer) => secret.encrypt(key.toString('base64'));
export const unwrapKey = (secret: ServerSecret, wrapped: string) => Buffer.from(secret.decrypt(wrapped), 'base64');

const FIND_CHUNK = 500;

/**
 * The key store of a single machine: its own SQLite file, `DATA_DIR/conversation-keys.sqlite`, so
 * it can be backed up, and restored, apart from the log. `secure_delete` overwrites a destroyed
 * key's bytes in the file, and the WAL is truncated after each erasure, so no stale page keeps it.
 * Writes are synchronous=FULL: a key must be durable before the event it sealed is appended.
 */
export class SqliteConversationKeyStore implements ConversationKeyStore {
  private readonly db: Database.Database;
  private readonly select = new Map<number, Database.Statement>();
  private readonly insert: Database.Statement;
  private readonly tombstone: Database.Statement;

  constructor(
    dataDir: string,
    private readonly secret: ServerSecret,
  ) {
    fs.mkdirSync(dataDir, { recursive: true });
    this.db = new Database(path.join(dataDir, 'conversation-keys.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS conversation_key (
         conversation_id TEXT PRIMARY KEY NOT NULL, wrapped TEXT, created_at TEXT NOT NULL, erased_at TEXT)`,
    );
    this.insert = this.db.prepare(
      'INSERT INTO conversation_key (conversation_id, wrapped, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.tombstone = this.db.prepare(
      `INSERT INTO conversation_key (conversation_id, wrapped, created_at, erased_at) VALUES (?, NULL, ?, ?)
       ON CONFLICT (conversation_id) DO UPDATE SET wrapped = NULL, erased_at = coalesce(erased_at, excluded.erased_at)`,
    );
  }

  find(ids: readonly string[]): Promise<Map<string, ConversationKey>> {
    const found = new Map<string, ConversationKey>();
    for (let i = 0; i < ids.length; i += FIND_CHUNK) {
      const chunk = ids.slice(i, i + FIND_CHUNK);
      for (const row of this.selectFor(chunk.length).all(...chunk) as Array<{ id: string; wrapped: string | null }>)
        found.set(row.id, row.wrapped === null ? 'erased' : unwrapKey(this.secret, row.wrapped));
    }
    return Promise.resolve(found);
  }

  async create(id: string): Promise<ConversationKey> {
    this.insert.run(id, wrapKey(this.secret, newDataKey()), new Date().toISOString());
    // another process may have made it first: the stored one is the key
    return (await this.find([id])).get(id)!;
  }

  erase(id: string, at: string): Promise<boolean> {
    const had = this.db.prepare('SELECT wrapped FROM conversation_key WHERE conversation_id = ?').get(id) as
      { wrapped: string | null } | undefined;
    this.tombstone.run(id, at, at);
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return Promise.resolve(Boolean(had?.wrapped));
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }

  private selectFor(n: number): Database.Statement {
    let statement = this.select.get(n);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT conversation_id AS id, wrapped FROM conversation_key WHERE conversation_id IN (${Array(n).fill('?').join(', ')})`,
      );
      this.select.set(n, statement);
    }
    return statement;
  }
}
