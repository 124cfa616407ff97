/**
 * A diagnostic, not a case: what the conversations read model's full-text index costs per turn
 * row, by how many rows one transaction inserts. The index is the projection's own (its `setup`
 * SQL: the FTS5 table and the triggers that feed it) over a turn table reduced to the columns the
 * triggers read; the texts are the debug-chat bench's (its synthetic queries, answered by a topic's
 * content). CPU time of this thread only, so a busy machine moves it less than a wall-clock rate.
 *
 * node dist/bench/lib/turn-fts-cost.js [rows=20000]
 * Prints one line per transaction size: CPU µs per row without the index, with it, and the index's share.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conversationsProjection } from '../../projections/conversations/conversations.projection';
import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';

const rows = Number(process.argv[2] ?? 20_000);
const knowledge = syntheticKnowledgeBase(500, 2000);

/** CPU µs per inserted row, `perTransaction` rows to a transaction, with or without the index. */
function cpuPerRow(perTransaction: number, indexed: boolean): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'turn-fts-cost-'));
  const db = new Database(path.join(dir, 'conversations.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE conversation_turn (id INTEGER PRIMARY KEY, conversation_id TEXT NOT NULL,
      turn_index INTEGER NOT NULL, user_input TEXT NOT NULL, agent_response TEXT NOT NULL, turn TEXT NOT NULL)`);
    if (indexed) for (const sql of conversationsProjection.setup ?? []) db.exec(sql);
    const insert = db.prepare(
      'INSERT INTO conversation_turn (conversation_id, turn_index, user_input, agent_response, turn) VALUES (?, ?, ?, ?, ?)',
    );
    let n = 0;
    const transaction = db.transaction((count: number) => {
      for (let i = 0; i < count; i++, n++) {
        const userInput = knowledge.queries[n % knowledge.queries.length];
        const agentResponse = knowledge.topics[(n * 7) % knowledge.topics.length].content;
        insert.run(`c${n % 32}`, n, userInput, agentResponse, JSON.stringify({ userInput, agentResponse }));
      }
    });
    const started = process.cpuUsage();
    while (n < rows) transaction(Math.min(perTransaction, rows - n));
    const used = process.cpuUsage(started);
    return (used.user + used.system) / rows;
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const perTransaction of [1, 4, 16, 64, 256]) {
  const without = cpuPerRow(perTransaction, false);
  const withIndex = cpuPerRow(perTransaction, true);
  console.log(
    `${String(perTransaction).padStart(3)} rows per transaction: ${without.toFixed(1)} µs per row without the index, ${withIndex.toFixed(1)} with it (the index ${(withIndex - without).toFixed(1)})`,
  );
}
