import {
  isTestConversationStream,
  isUserTurn,
  outcomeOf,
  type ConversationEvent,
  type Outcome,
} from '../../src/conversations/conversation.events';
import type { EntityManager } from 'typeorm';
import { portableSql } from '../../src/platform/database/portable-sql';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import type { Awaitable, Rows } from '../../src/read-models/apply/rows';
import { parseHistogram, record, type LogHistogram } from '../../src/platform/stats/log-histogram';
import {
  AnalyticsBucketRow,
  AnalyticsConversationRow,
  AnalyticsTopicRow,
  AnalyticsUnansweredRow,
  AnalyticsUnansweredTurnRow,
} from './analytics.entities';
import { BUCKET_SIZES } from './bucket-sizes';
import { ANALYTICS_READ_MODEL } from './name';
import { normalizeInput } from './unanswered';

const on = handlerFor<ConversationEvent>();
const STREAM_PREFIX = 'conversation-';

type Scope = Pick<AnalyticsConversationRow, 'projectId' | 'environment' | 'channel' | 'accountId' | 'startedMs'>;
type Counter = 'conversations' | 'turns' | 'oodTurns' | 'contained' | 'handoffs' | 'abandoned' | 'notConnected';

interface BucketState {
  row: Omit<AnalyticsBucketRow, 'durationMs' | 'firstResponseMs'>;
  duration: LogHistogram;
  firstResponse: LogHistogram;
}

const OUTCOME_COUNTER: Record<Outcome, Counter> = {
  contained: 'contained',
  handoff: 'handoffs',
  abandoned: 'abandoned',
  not_connected: 'notConnected',
};

/** The primary key of a bucket's row in each size, for one conversation's scope. */
function bucketKeys(scope: Scope) {
  return BUCKET_SIZES.map(({ size, ms }) => ({
    projectId: scope.projectId,
    environment: scope.environment,
    size,
    startMs: Math.floor(scope.startedMs / ms) * ms,
    channel: scope.channel,
  }));
}

type BucketKey = ReturnType<typeof bucketKeys>[number];
const keyText = (k: BucketKey) => `${k.projectId}|${k.environment}|${k.size}|${k.startMs}|${k.channel}`;

function conversation(rows: Rows, streamId: string): Awaitable<AnalyticsConversationRow | undefined> {
  const conversationId = streamId.slice(STREAM_PREFIX.length);
  return rows.remembered(`c:${conversationId}`, () => rows.findOne(AnalyticsConversationRow, { conversationId }));
}

function saveConversation(rows: Rows, c: AnalyticsConversationRow): void {
  rows.remember(`c:${c.conversationId}`, c);
  rows.upsertAtBatchEnd(AnalyticsConversationRow, `c:${c.conversationId}`, () => c);
}

async function loadBucket(rows: Rows, key: BucketKey, accountId: string): Promise<BucketState> {
  const stored = await rows.findOne(AnalyticsBucketRow, key);
  if (stored) {
    const { durationMs, firstResponseMs, ...row } = stored;
    return {
      row: { ...row, startMs: Number(row.startMs) },
      duration: parseHistogram(durationMs),
      firstResponse: parseHistogram(firstResponseMs),
    };
  }
  return {
    row: {
      ...key,
      accountId,
      conversations: 0,
      contained: 0,
      handoffs: 0,
      abandoned: 0,
      notConnected: 0,
      turns: 0,
      oodTurns: 0,
    },
    duration: {},
    firstResponse: {},
  };
}

/** Changes the conversation's bucket of each size; each row is written once at the batch's end. */
async function inBuckets(rows: Rows, scope: Scope, change: (bucket: BucketState) => void): Promise<void> {
  for (const key of bucketKeys(scope)) {
    const remembered = `b:${keyText(key)}`;
    const bucket = await rows.remembered(remembered, () => loadBucket(rows, key, scope.accountId));
    change(bucket);
    rows.upsertAtBatchEnd(AnalyticsBucketRow, remembered, () => ({
      ...bucket.row,
      durationMs: JSON.stringify(bucket.duration),
      firstResponseMs: JSON.stringify(bucket.firstResponse),
    }));
  }
}

/** Adds one to a per-bucket count keyed by one more column (a topic, a text). */
async function countIn<T extends AnalyticsTopicRow | AnalyticsUnansweredRow>(
  rows: Rows,
  entity: new () => T,
  scope: Scope,
  extra: Partial<T>,
  fold: (row: T | undefined, key: BucketKey) => T,
  /** written at once rather than at the batch's end: a row an erasure may delete in the same batch */
  atOnce = false,
): Promise<void> {
  for (const key of bucketKeys(scope)) {
    const where = { ...key, ...extra } as unknown as Partial<T>;
    const remembered = rememberedKey(entity, key, extra);
    const row = fold(await rows.remembered(remembered, () => rows.findOne(entity, where)), key);
    rows.remember(remembered, row);
    if (atOnce) await rows.upsert(entity, row);
    else rows.upsertAtBatchEnd(entity, remembered, () => row);
  }
}

const rememberedKey = (entity: { name: string }, key: BucketKey, extra: object) =>
  `${entity.name}:${keyText(key)}|${JSON.stringify(extra)}`;

/**
 * The analytics read model (contract §23): per project, environment, channel and hour or UTC day,
 * conversations by outcome, turns, out-of-domain turns, sketches of duration and first response,
 * turns per cited topic, and the user inputs that cited none. All from the conversation streams,
 * so a rebuild reproduces every figure and a figure added later covers all history.
 */
export const analyticsProjection = defineProjection({
  name: ANALYTICS_READ_MODEL,
  version: 1,
  entities: [
    AnalyticsConversationRow,
    AnalyticsBucketRow,
    AnalyticsTopicRow,
    AnalyticsUnansweredRow,
    AnalyticsUnansweredTurnRow,
  ],
  handles: {
    ConversationStarted: on<'ConversationStarted'>(async ({ data, streamId }, _em, rows) => {
      // a test run's conversation counts in no figure; its later events find no row and count nothing
      if (isTestConversationStream(streamId)) return;
      const c: AnalyticsConversationRow = {
        conversationId: data.conversationId,
        accountId: data.accountId,
        projectId: data.agentId,
        environment: data.environment,
        channel: data.channel,
        startedMs: Date.parse(data.startedAt),
        userTurns: 0,
        handedOff: 0,
        ended: 0,
      };
      saveConversation(rows, c);
      await inBuckets(rows, c, (b) => b.row.conversations++);
    }),
    TurnRecorded: on<'TurnRecorded'>(async ({ data, streamId }, _em, rows) => {
      const c = await conversation(rows, streamId);
      if (!c) return;
      const scope = { ...c, startedMs: Number(c.startedMs) };
      if (isUserTurn(data)) {
        const first = c.userTurns === 0;
        saveConversation(rows, { ...c, userTurns: c.userTurns + 1 });
        await inBuckets(rows, scope, (b) => {
          b.row.turns++;
          if (data.isOod) b.row.oodTurns++;
          if (first) record(b.firstResponse, data.latency.total_s * 1000);
        });
        if (!data.citedTopic) await unanswered(rows, scope, c.conversationId, data.userInput, data.userInputAt);
      }
      if (data.citedTopic)
        await countIn(rows, AnalyticsTopicRow, scope, { topic: data.citedTopic }, (row, key) => ({
          ...key,
          topic: data.citedTopic,
          turns: (row?.turns ?? 0) + 1,
        }));
    }),
    HandoffRequested: on<'HandoffRequested'>(async ({ streamId }, _em, rows) => {
      const c = await conversation(rows, streamId);
      if (c && !c.handedOff) saveConversation(rows, { ...c, handedOff: 1 });
    }),
    ConversationErased: on<'ConversationErased'>(async ({ streamId }, em, rows) => {
      const c = await conversation(rows, streamId);
      if (c) await forgetInputs(em, rows, { ...c, startedMs: Number(c.startedMs) }, c.conversationId);
    }),
    ConversationEnded: on<'ConversationEnded'>(async ({ data, streamId }, _em, rows) => {
      const c = await conversation(rows, streamId);
      if (!c || c.ended) return;
      saveConversation(rows, { ...c, ended: 1 });
      const outcome = outcomeOf({ reason: data.reason, handedOff: c.handedOff === 1, userTurns: c.userTurns });
      const startedMs = Number(c.startedMs);
      await inBuckets(rows, { ...c, startedMs }, (b) => {
        b.row[OUTCOME_COUNTER[outcome]]++;
        // a call nobody answered has no duration worth a percentile
        if (outcome !== 'not_connected') record(b.duration, Math.max(0, Date.parse(data.endedAt) - startedMs));
      });
    }),
  },
});

/**
 * An erased conversation's unanswered inputs leave the counts (contract §24): a text nobody else
 * asked leaves the read model with it. Counts, outcomes and durations stay: they are not personal.
 */
async function forgetInputs(em: EntityManager, rows: Rows, scope: Scope, conversationId: string): Promise<void> {
  const given = (await em.query(
    portableSql(em, 'SELECT text FROM analytics_unanswered_turn WHERE conversation_id = ?'),
    [conversationId],
  )) as Array<{ text: string }>;
  for (const { text } of given)
    for (const key of bucketKeys(scope)) {
      const where = { ...key, text };
      const remembered = rememberedKey(AnalyticsUnansweredRow, key, { text });
      const row = await rows.remembered(remembered, () => rows.findOne(AnalyticsUnansweredRow, where));
      if (!row) continue;
      const less = row.count > 1 ? { ...row, count: row.count - 1 } : undefined;
      rows.remember(remembered, less);
      if (less) await rows.upsert(AnalyticsUnansweredRow, less);
      else await rows.delete(AnalyticsUnansweredRow, where);
    }
  await rows.delete(AnalyticsUnansweredTurnRow, { conversationId });
}

async function unanswered(rows: Rows, scope: Scope, conversationId: string, input: string, at: string): Promise<void> {
  const text = normalizeInput(input);
  if (!text) return;
  await countIn(
    rows,
    AnalyticsUnansweredRow,
    scope,
    { text },
    (row, key) => {
      const latest = !row || at >= row.lastAt;
      return {
        ...key,
        text,
        count: (row?.count ?? 0) + 1,
        lastAt: latest ? at : row.lastAt,
        conversationId: latest ? conversationId : row.conversationId,
      };
    },
    true,
  );
  await rows.insert(AnalyticsUnansweredTurnRow, { conversationId, startedMs: scope.startedMs, text, at });
}
