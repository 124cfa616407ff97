import { isTestConversationStream, type ConversationEvent } from '../../src/conversations/conversation.events';
import type { ApiErrorEvent } from '../../src/alerts/api-error.events';
import { defineProjection, handlerFor, type ProjectionHandler } from '../../src/read-models/projection';
import type { Awaitable, Rows } from '../../src/read-models/apply/rows';
import { SampleConversationRow, SampleRow } from './alert-samples.entities';
import { ALERT_SAMPLES_READ_MODEL } from './name';

const on = handlerFor<ConversationEvent>();
const STREAM_PREFIX = 'conversation-';

function scope(rows: Rows, streamId: string): Awaitable<SampleConversationRow | undefined> {
  const conversationId = streamId.slice(STREAM_PREFIX.length);
  return rows.remembered(`scope:${conversationId}`, () => rows.findOne(SampleConversationRow, { conversationId }));
}

function sample(rows: Rows, where: SampleConversationRow, kind: string, at: string, value: number): Awaitable<void> {
  return rows.insert(SampleRow, {
    accountId: where.accountId,
    projectId: where.projectId,
    kind,
    atMs: Date.parse(at),
    value,
  });
}

/** The metric samples alert rules are evaluated over (contract §12), from the conversation streams. */
export const alertSamplesProjection = defineProjection({
  name: ALERT_SAMPLES_READ_MODEL,
  version: 2,
  entities: [SampleRow, SampleConversationRow],
  handles: {
    ConversationStarted: on<'ConversationStarted'>(async ({ data, streamId }, _em, rows) => {
      // a test run's conversation counts in no metric; its later events find no scope and count nothing either
      if (isTestConversationStream(streamId)) return;
      const where = { conversationId: data.conversationId, accountId: data.accountId, projectId: data.agentId };
      await rows.upsert(SampleConversationRow, where);
      rows.remember(`scope:${data.conversationId}`, where);
      await sample(rows, where, 'call', data.startedAt, 1);
    }),
    TurnRecorded: on<'TurnRecorded'>(async ({ data, streamId }, _em, rows) => {
      const where = await scope(rows, streamId);
      if (!where) return;
      // the greeting answers no one: its latency is not a turn latency
      if (data.turnIndex > 0)
        await sample(
          rows,
          where,
          'latency',
          data.agentResponseAt,
          Math.round(data.latency.total_s * 1000 * 1000) / 1000,
        );
      if (data.apiErrors > 0) await sample(rows, where, 'api_errors', data.agentResponseAt, data.apiErrors);
      if (data.functionErrors > 0)
        await sample(rows, where, 'function_errors', data.agentResponseAt, data.functionErrors);
    }),
    ApiErrorRecorded: (async ({ data }, _em, rows) => {
      await sample(
        rows,
        { conversationId: '', accountId: data.accountId, projectId: data.agentId },
        'api_errors',
        data.at,
        1,
      );
    }) as ProjectionHandler<ApiErrorEvent['data']>,
    ConversationEnded: on<'ConversationEnded'>(async ({ data, streamId }, _em, rows) => {
      const where = await scope(rows, streamId);
      if (where && data.reason === 'crash') await sample(rows, where, 'crash', data.endedAt, 1);
    }),
  },
});
