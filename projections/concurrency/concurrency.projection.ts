import type { ConversationEvent } from '../../src/conversations/conversation.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import type { Awaitable, Rows } from '../../src/read-models/apply/rows';
import { ConcurrencyBucketRow, ConcurrencyConversationRow } from './concurrency.entities';
import { CONCURRENCY_READ_MODEL } from './name';

const on = handlerFor<ConversationEvent>();
const STREAM_PREFIX = 'conversation-';

/** The length of one interval of the series (contract §17). */
export const BUCKET_MS = 5 * 60 * 1000;

const bucketOf = (iso: string) => Math.floor(Date.parse(iso) / BUCKET_MS);

type Slices = Pick<
  ConcurrencyConversationRow,
  'agentId' | 'environment' | 'channel' | 'variantId' | 'variantName' | 'language' | 'phoneNumber'
>;

const slicesOf = (row: ConcurrencyConversationRow): Slices => ({
  agentId: row.agentId,
  environment: row.environment,
  channel: row.channel,
  variantId: row.variantId,
  variantName: row.variantName,
  language: row.language,
  phoneNumber: row.phoneNumber,
});

/** Adds `by` to the intervals [from, to] of one combination of slices. */
async function count(rows: Rows, slices: Slices, from: number, to: number, by: number): Promise<void> {
  for (let bucket = from; bucket <= to; bucket++) {
    const where = { ...slices, bucket };
    if ((await rows.increment(ConcurrencyBucketRow, where, 'conversations', by)) === 0)
      await rows.insert(ConcurrencyBucketRow, { ...where, conversations: by });
  }
}

function conversation(rows: Rows, streamId: string): Awaitable<ConcurrencyConversationRow | undefined> {
  const id = streamId.slice(STREAM_PREFIX.length);
  return rows.remembered(`conversation:${id}`, () => rows.findOne(ConcurrencyConversationRow, { id }));
}

/** A later event: the conversation counts up to the interval it happened in. */
async function reached(rows: Rows, streamId: string, at: string): Promise<void> {
  const row = await conversation(rows, streamId);
  const bucket = bucketOf(at);
  if (!row || !(bucket > row.lastBucket)) return;
  await count(rows, slicesOf(row), row.lastBucket + 1, bucket, 1);
  row.lastBucket = bucket;
  await rows.update(ConcurrencyConversationRow, { id: row.id }, { lastBucket: bucket });
}

/**
 * Concurrent conversations (contract §17): a conversation counts in every 5-minute interval from
 * the one of its first event to the one of its last, under its agent, environment, channel,
 * variant, language and the agent's phone number.
 */
export const concurrencyProjection = defineProjection({
  name: CONCURRENCY_READ_MODEL,
  version: 1,
  entities: [ConcurrencyConversationRow, ConcurrencyBucketRow],
  handles: {
    ConversationStarted: on<'ConversationStarted'>(async ({ data }, _em, rows) => {
      const bucket = bucketOf(data.startedAt);
      const row: ConcurrencyConversationRow = {
        id: data.conversationId,
        agentId: data.agentId,
        environment: data.environment,
        channel: data.channel,
        variantId: data.variantId,
        variantName: data.variantName,
        language: data.language,
        phoneNumber: '',
        firstBucket: bucket,
        lastBucket: bucket,
      };
      // a replayed start (it cannot happen twice in one stream) would count twice: guard anyway
      if (await rows.findOne(ConcurrencyConversationRow, { id: row.id })) return;
      await rows.insert(ConcurrencyConversationRow, row);
      rows.remember(`conversation:${row.id}`, row);
      await count(rows, slicesOf(row), bucket, bucket, 1);
    }),
    // The agent's number arrives in the initial state, just after the start: the counted
    // intervals move to the combination with the number.
    StateChanged: on<'StateChanged'>(async ({ data, streamId }, _em, rows) => {
      const number = data.changes.agent_number;
      if (typeof number !== 'string') return;
      const row = await conversation(rows, streamId);
      if (!row || row.phoneNumber === number) return;
      await count(rows, slicesOf(row), row.firstBucket, row.lastBucket, -1);
      row.phoneNumber = number;
      await count(rows, slicesOf(row), row.firstBucket, row.lastBucket, 1);
      await rows.update(ConcurrencyConversationRow, { id: row.id }, { phoneNumber: number });
    }),
    TurnRecorded: on<'TurnRecorded'>(({ data, streamId }, _em, rows) => reached(rows, streamId, data.agentResponseAt)),
    ConversationEnded: on<'ConversationEnded'>(({ data, streamId }, _em, rows) =>
      reached(rows, streamId, data.endedAt),
    ),
    ExternalEventReceived: on<'ExternalEventReceived'>(({ data, streamId }, _em, rows) =>
      reached(rows, streamId, data.receivedAt),
    ),
    DelayedResponseDelivered: on<'DelayedResponseDelivered'>(({ data, streamId }, _em, rows) =>
      reached(rows, streamId, data.deliveredAt),
    ),
  },
});
