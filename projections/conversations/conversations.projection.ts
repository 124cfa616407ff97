import { isTestConversationStream, type ConversationEvent } from '../../src/conversations/conversation.events';
import { evolveSummary, turnView, type ConversationSummary } from './conversation-view';
import { defineProjection, type ProjectionHandler } from '../../src/read-models/projection';
import type { Rows } from '../../src/read-models/apply/rows';
import { ConversationRow, ConversationTurnRow } from './conversations.entities';
import { CONVERSATIONS_POSTGRES_SETUP } from './conversations.postgres-setup';
import { CONVERSATIONS_READ_MODEL } from './name';
import { erasedTurn } from './erased-turn';

const STREAM_PREFIX = 'conversation-';

function toRow(s: ConversationSummary): ConversationRow {
  return {
    id: s.id,
    accountId: s.accountId,
    agentId: s.agentId,
    environment: s.environment,
    channel: s.channel,
    variantId: s.variantId,
    variantName: s.variantName,
    startedAt: s.startedAt,
    inProgress: s.endedAt === null,
    sharedId: s.sharedId,
    numTurns: s.numTurns,
    outcome: s.analysis?.outcome ?? null,
    summary: JSON.stringify(s),
  };
}

async function load(rows: Rows, id: string): Promise<ConversationSummary | null> {
  const row = await rows.findOne(ConversationRow, { id });
  return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
}

/**
 * Every conversation event goes through the same evolve `as_of` uses (conversation-view.ts). The
 * summary is folded in memory across a batch and its row written once at the batch's end: a
 * conversation's dozen events in one catch-up batch cost one read and one write, not twelve.
 */
const apply: ProjectionHandler = async (event, em, rows) => {
  if (isTestConversationStream(event.streamId)) return;
  const id = event.streamId.slice(STREAM_PREFIX.length);
  const domainEvent = event as unknown as ConversationEvent;
  const key = `conversation:${id}`;
  const before = domainEvent.type === 'ConversationStarted' ? null : await rows.remembered(key, () => load(rows, id));
  const after = evolveSummary(before, domainEvent);
  if (!after) return;
  if (after !== before) {
    rows.remember(key, after);
    rows.upsertAtBatchEnd(ConversationRow, key, () => toRow(after));
  }
  if (domainEvent.type === 'ConversationErased' && after) {
    // the index then removes an erased turn's words from its pages, not only from its lookups
    if (em.connection.options.type === 'better-sqlite3')
      await em.query(`INSERT INTO turn_fts (turn_fts, rank) VALUES ('secure-delete', 1)`);
    for (let turnIndex = 0; turnIndex < after.numTurns; turnIndex++) {
      const row = await rows.findOne(ConversationTurnRow, { conversationId: id, turnIndex });
      if (row) await rows.update(ConversationTurnRow, { conversationId: id, turnIndex }, erasedTurn(row));
    }
  }
  if (domainEvent.type === 'TurnRecorded') {
    const { metadata, ...turn } = turnView(domainEvent.data);
    await rows.insert(ConversationTurnRow, {
      conversationId: id,
      turnIndex: turn.turnIndex,
      userInput: turn.userInput,
      agentResponse: turn.agentResponse,
      turn: JSON.stringify(turn),
      metadata: JSON.stringify(metadata),
    });
  }
};

const CONVERSATION_EVENTS: Array<ConversationEvent['type']> = [
  'ConversationStarted',
  'TurnRecorded',
  'StateChanged',
  'MetricLogged',
  'ExternalEventAwaited',
  'HandoffRequested',
  'ConversationEnded',
  'ConversationErased',
  'ConversationAnalysed',
];

/** What keeps the turns' full-text index (an external-content FTS5 table) in step with their rows. */
const TURN_FTS_TRIGGERS = [
  `CREATE TRIGGER turn_fts_insert AFTER INSERT ON conversation_turn BEGIN
       INSERT INTO turn_fts (rowid, user_input, agent_response) VALUES (new.id, new.user_input, new.agent_response);
     END`,
  `CREATE TRIGGER turn_fts_delete AFTER DELETE ON conversation_turn BEGIN
       INSERT INTO turn_fts (turn_fts, rowid, user_input, agent_response) VALUES ('delete', old.id, old.user_input, old.agent_response);
     END`,
  `CREATE TRIGGER turn_fts_update AFTER UPDATE ON conversation_turn BEGIN
       INSERT INTO turn_fts (turn_fts, rowid, user_input, agent_response) VALUES ('delete', old.id, old.user_input, old.agent_response);
       INSERT INTO turn_fts (rowid, user_input, agent_response) VALUES (new.id, new.user_input, new.agent_response);
     END`,
];
const TURN_FTS_TRIGGER_NAMES = ['turn_fts_insert', 'turn_fts_delete', 'turn_fts_update'];

/**
 * Conversations and their turns: the Conversations and Handoff APIs' read model. Turn texts are
 * indexed for full-text search (FTS5, Porter stemming, accents folded; on PostgreSQL tsvector and
 * GIN, snowball stemming, unaccent), fed by triggers so the index commits with the rows.
 */
export const conversationsProjection = defineProjection({
  name: CONVERSATIONS_READ_MODEL,
  // 2: the outcome of post-call analysis, a column the list filters on
  version: 2,
  entities: [ConversationRow, ConversationTurnRow],
  handles: Object.fromEntries(CONVERSATION_EVENTS.map((type) => [type, apply])),
  setup: [
    `CREATE VIRTUAL TABLE turn_fts USING fts5(user_input, agent_response, content='conversation_turn', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`,
    `CREATE VIRTUAL TABLE turn_vocab USING fts5vocab(turn_fts, 'row')`,
    ...TURN_FTS_TRIGGERS,
  ],
  // a generation built from the start indexes its turns in one pass once caught up (bulk-build.ts)
  bulkBuild: {
    leaveOut: TURN_FTS_TRIGGER_NAMES.map((name) => `DROP TRIGGER IF EXISTS ${name}`),
    build: [`INSERT INTO turn_fts (turn_fts) VALUES ('rebuild')`, ...TURN_FTS_TRIGGERS],
  },
  postgresSetup: CONVERSATIONS_POSTGRES_SETUP,
  // its turns' full-text index costs more per event than every other read model together
  applyApart: true,
});
