import { openSealedSqliteLog } from '../src/cli/open-sealed-store';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { conversationsProjection } from '../projections/conversations/conversations.projection';
import { replayConversation } from '../projections/conversations/queries';
import type { ConversationEvent } from '../src/conversations/conversation.events';
import { openAppDatabase } from '../src/app.database';
import { ReadModelRegistry } from '../src/read-models/generations/read-model-registry';
import { verify } from '../src/read-models/generations/verify';
import { seed, type SeedResult } from '../src/cli/seed/seed';

/**
 * `npm run seed` end to end: demo data through the real paths, a conversations read model equal to
 * a fresh replay of the log, and the same fold for the read model and `as_of`.
 */
describe('seed and the conversations read model', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-seed-'));
  let result: SeedResult;

  beforeAll(async () => {
    // on SQLite in every pass (also `npm run test:postgres`): what is checked is the read-model file the seed leaves in DATA_DIR
    result = await seed({
      dataDir: dir,
      conversations: 300,
      agents: 2,
      days: 90,
      seed: 7,
      concurrency: 32,
      log: () => undefined,
      env: { READ_MODEL_DB: 'sqlite' },
    });
  }, 240_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function readModel(): Database.Database {
    const folder = path.join(dir, 'read-models', 'conversations');
    const file = fs.readdirSync(folder).find((f) => f.endsWith('.sqlite'))!;
    return new Database(path.join(folder, file), { readonly: true });
  }

  it('reports what it made: an account, two keys, the agents', () => {
    expect(result.accountId).toMatch(/^ws-/);
    expect(result.keys).toHaveLength(2);
    expect(result.keys.every((k) => k.key.startsWith('sk_'))).toBe(true);
    expect(result.agents.map((a) => a.name)).toEqual(['Acme Support', 'Acme Orders']);
    expect(result.conversations).toBe(300);
  });

  it('makes varied, realistic conversations over the whole period', () => {
    const db = readModel();
    try {
      const all = db
        .prepare(
          'SELECT channel, environment, in_progress, num_turns, started_at, shared_id, summary FROM conversation',
        )
        .all() as Array<{
        channel: string;
        environment: string;
        in_progress: number;
        num_turns: number;
        started_at: string;
        summary: string;
      }>;
      expect(all).toHaveLength(300);
      expect(new Set(all.map((c) => c.channel))).toEqual(new Set(['VOICE-SIP', 'WEBCHAT', 'CHAT', 'SMS']));
      expect(new Set(all.map((c) => c.environment))).toEqual(new Set(['live', 'pre-release', 'sandbox']));
      const days =
        (Date.parse(
          all
            .map((c) => c.started_at)
            .sort()
            .at(-1)!,
        ) -
          Date.parse(all.map((c) => c.started_at).sort()[0])) /
        86_400_000;
      expect(days).toBeGreaterThan(80);
      const meanTurns = all.reduce((sum, c) => sum + c.num_turns, 0) / all.length;
      expect(meanTurns).toBeGreaterThan(6);
      expect(meanTurns).toBeLessThan(14);
      const summaries = all.map(
        (c) =>
          JSON.parse(c.summary) as {
            handoffAt: string | null;
            numOod: number;
            numSilences: number;
            metrics: unknown[];
          },
      );
      expect(summaries.some((s) => s.handoffAt !== null)).toBe(true);
      expect(summaries.some((s) => s.numOod > 0)).toBe(true);
      expect(summaries.some((s) => s.numSilences > 0)).toBe(true);
      expect(all.some((c) => c.in_progress === 1)).toBe(true);
      // every ended conversation comes analysed (contract §24)
      const outcomes = db.prepare('SELECT in_progress, outcome FROM conversation').all() as Array<{
        in_progress: number;
        outcome: string | null;
      }>;
      expect(outcomes.filter((c) => (c.in_progress === 1) !== (c.outcome === null))).toEqual([]);
      expect([...new Set(outcomes.map((c) => c.outcome))]).toEqual(expect.arrayContaining(['contained', 'handoff']));
      // every turn is indexed for search
      const turns = (db.prepare('SELECT count(*) AS n FROM conversation_turn').get() as { n: number }).n;
      expect(turns).toBe(all.reduce((sum, c) => sum + c.num_turns, 0));
      expect(
        (db.prepare("SELECT count(*) AS n FROM turn_fts WHERE turn_fts MATCH 'refund'").get() as { n: number }).n,
      ).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('the read model equals a fresh replay of the log (projections verify)', async () => {
    const store = await openSealedSqliteLog(dir);
    const platform = await openAppDatabase(dir);
    try {
      const report = await verify(conversationsProjection, store, new ReadModelRegistry(platform, dir));
      expect(report.differences).toBe(0);
      expect(report.tables.map((t) => t.table).sort()).toEqual(['conversation', 'conversation_turn']);
    } finally {
      await platform.destroy();
      await store.close();
    }
  });

  it('folds each conversation the same way for the read model and for as_of', async () => {
    const store = await openSealedSqliteLog(dir);
    const db = readModel();
    try {
      const rows = db.prepare('SELECT id, summary FROM conversation ORDER BY id LIMIT 25').all() as Array<{
        id: string;
        summary: string;
      }>;
      for (const row of rows) {
        const events = await store.readStream(`conversation-${row.id}`);
        const replayed = replayConversation(events as unknown as ConversationEvent[])!;
        expect(replayed.summary).toEqual(JSON.parse(row.summary));
        const stored = db
          .prepare('SELECT turn FROM conversation_turn WHERE conversation_id = ? ORDER BY turn_index')
          .all(row.id) as Array<{ turn: string }>;
        expect(stored.map((t) => JSON.parse(t.turn))).toEqual(
          replayed.turns.map(({ metadata: _metadata, ...turn }) => turn),
        );
      }
    } finally {
      db.close();
      await store.close();
    }
  });
});
