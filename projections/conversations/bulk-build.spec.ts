import fc from 'fast-check';
import type { TurnData } from '../../src/conversations/conversation.events';
import { beginBulkBuild, endBulkBuild } from '../../src/read-models/generations/bulk-build';
import { projectedReadModel, type GivenEvent, type ProjectedReadModel } from '../../test/support/projection-spec';
import { conversationsProjection } from './conversations.projection';
import { SqliteConversationsRepository } from './sqlite-queries';

const WORDS = ['open', 'opening', 'opens', 'nine', 'café', 'CAFE', 'refund', 'refunds', 'naïve', 'help', 'délai', 'x'];

const turn = (turnIndex: number, userInput: string, agentResponse: string): TurnData => ({
  turnIndex,
  userInput,
  userInputAt: '2026-05-01T00:00:00.000Z',
  agentResponse,
  agentResponseAt: '2026-05-01T00:00:01.000Z',
  bargeIn: false,
  isSilence: false,
  isOod: false,
  intents: [],
  entities: {},
  retrievedTopics: [],
  retrievedSources: [],
  citedTopic: '',
  currentNode: '',
  nodeTrace: [],
  functionEvents: [],
  functionErrors: 0,
  llmRequests: [],
  apiErrors: 0,
  latency: { total_s: 0.5, stages: {} },
  asrLangCode: 'en-GB',
  ttsLangCode: 'en-GB',
  inputMetadata: {},
  delayedResponse: false,
});

const started = (id: string): GivenEvent => ({
  stream: `conversation-${id}`,
  type: 'ConversationStarted',
  data: {
    conversationId: id,
    accountId: 'acme',
    agentId: 'ag1',
    deploymentId: 'd1',
    version: 1,
    environment: 'live',
    channel: 'CHAT',
    fromNumber: '',
    toNumber: '',
    variantId: 'v1',
    variantName: 'main',
    language: 'en-GB',
    startedAt: '2026-05-01T00:00:00.000Z',
  },
});

const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((words) => words.join(' '));
/** Conversations of random turns, in random order of their events across conversations. */
const history = fc
  .array(fc.array(fc.tuple(text, text), { maxLength: 5 }), { minLength: 1, maxLength: 6 })
  .map((conversations) => {
    const events: GivenEvent[] = [];
    conversations.forEach((turns, c) => {
      events.push(started(`c${c}`));
      turns.forEach(([user, agent], i) =>
        events.push({ stream: `conversation-c${c}`, type: 'TurnRecorded', data: turn(i, user, agent) }),
      );
    });
    return events;
  });

/** What a search can see of the index: every word's and prefix's matches with their rank, and the vocabulary. */
async function indexAnswers(rm: ProjectedReadModel): Promise<unknown> {
  const matches: Record<string, unknown> = {};
  for (const query of [...WORDS.map((w) => `"${w}"`), 'open*', 'ref*', 'user_input : help', 'nine OR cafe'])
    matches[query] = await rm.rows(
      'SELECT rowid, rank FROM turn_fts WHERE turn_fts MATCH ? ORDER BY rank, rowid',
      query,
    );
  return {
    matches,
    vocabulary: await rm.rows('SELECT term, doc, cnt FROM turn_vocab ORDER BY term'),
    schema: await rm.rows(`SELECT type, name, sql FROM sqlite_master WHERE name <> 'sqlite_sequence' ORDER BY name`),
  };
}

describe('conversations: a generation built in bulk (bulk-build.ts)', () => {
  it('answers every search as the one fed row by row by its triggers, and feeds its index by triggers after', async () => {
    await fc.assert(
      fc.asyncProperty(history, history, async (built, after) => {
        const rowByRow = await projectedReadModel(conversationsProjection);
        const bulk = await projectedReadModel(conversationsProjection);
        try {
          await beginBulkBuild(bulk.source, conversationsProjection);
          // several batches, as a catch-up applies them
          for (const part of [built.slice(0, 3), built.slice(3)])
            if (part.length > 0) await Promise.all([rowByRow.given(...part), bulk.given(...part)]);
          expect(await bulk.rows("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger'")).toEqual([{ n: 0 }]);
          expect(await endBulkBuild(bulk.source, conversationsProjection)).toBe(true);
          expect(await endBulkBuild(bulk.source, conversationsProjection)).toBe(false);
          // then live: the triggers are back, and new conversations of the same ids are new streams
          const live = after.map((e) => ({ ...e, stream: `${e.stream}-live`, data: liveData(e) }));
          await rowByRow.given(...live);
          await bulk.given(...live);
          expect(await indexAnswers(bulk)).toEqual(await indexAnswers(rowByRow));
          // FTS5's own check of the index against its content table
          await bulk.rows(`INSERT INTO turn_fts (turn_fts, rank) VALUES ('integrity-check', 1)`);
        } finally {
          await rowByRow.close();
          await bulk.close();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a generation in the bulk mode answers no search until it is built', async () => {
    const rm = await projectedReadModel(conversationsProjection);
    try {
      await beginBulkBuild(rm.source, conversationsProjection);
      await rm.given(started('c1'), {
        stream: 'conversation-c1',
        type: 'TurnRecorded',
        data: turn(0, 'When are you opening?', 'We open at nine.'),
      });
      expect(await rm.rows("SELECT rowid FROM turn_fts WHERE turn_fts MATCH 'nine'")).toEqual([]);
      await endBulkBuild(rm.source, conversationsProjection);
      const queries = new SqliteConversationsRepository(() => rm.source);
      expect((await queries.turns('c1', false)).map((t) => t.agentResponse)).toEqual(['We open at nine.']);
      expect(await rm.rows("SELECT rowid FROM turn_fts WHERE turn_fts MATCH 'opens'")).toHaveLength(1);
    } finally {
      await rm.close();
    }
  });
});

function liveData(event: GivenEvent): unknown {
  if (event.type !== 'ConversationStarted') return event.data;
  const data = event.data as { conversationId: string };
  return { ...data, conversationId: `${data.conversationId}-live` };
}
