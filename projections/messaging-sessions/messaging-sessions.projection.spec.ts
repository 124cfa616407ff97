import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { messagingSessionsProjection } from './messaging-sessions.projection';
import { messagingSessionsQueries } from './queries';

const started = (sessionId: string) => ({
  stream: `messaging-session-${sessionId}`,
  type: 'MessagingSessionStarted',
  data: {
    sessionId,
    accountId: 'acme',
    agentId: 'ag1',
    connectorId: 'con_1',
    environment: 'live',
    at: '2026-05-01T00:00:00.000Z',
  },
});
const on = (sessionId: string, type: string, data: object) => ({
  stream: `messaging-session-${sessionId}`,
  type,
  data,
});

describe('messaging-sessions projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(messagingSessionsProjection);
  });
  afterEach(() => rm.close());

  it('given sessions joined, handed off, accepted and ended: the queue and who holds what', async () => {
    await rm.given(
      started('s1'),
      started('s2'),
      started('s3'),
      on('s1', 'MessagingServiceAgentJoined', { conversationId: 'c1' }),
      on('s1', 'MessagingHandoffTriggered', {
        handoffId: 'h1',
        destination: 'billing',
        reason: 'asked',
        at: '2026-05-01T00:01:00.000Z',
      }),
      on('s2', 'MessagingHandoffTriggered', {
        handoffId: 'h2',
        destination: 'billing',
        reason: 'asked',
        at: '2026-05-01T00:02:00.000Z',
      }),
      on('s2', 'MessagingHandoffAccepted', { liveAgentId: 'key_1', agentName: 'Ann' }),
      on('s3', 'MessagingSessionEnded', { at: '2026-05-01T00:03:00.000Z', reason: 'user_left' }),
    );
    expect(
      await rm.rows('SELECT id, status, conversation_id, live_agent_id, end_reason FROM messaging_session ORDER BY id'),
    ).toEqual([
      { id: 's1', status: 'queued', conversation_id: 'c1', live_agent_id: null, end_reason: null },
      { id: 's2', status: 'live', conversation_id: null, live_agent_id: 'key_1', end_reason: null },
      { id: 's3', status: 'ended', conversation_id: null, live_agent_id: null, end_reason: 'user_left' },
    ]);
    const queries = messagingSessionsQueries({ source: () => rm.source });
    expect((await queries.queuedIn('acme')).rows).toEqual([
      { id: 's1', agent_id: 'ag1', destination: 'billing', reason: 'asked', queued_at: '2026-05-01T00:01:00.000Z' },
    ]);
    expect((await queries.heldBy('key_1')).rows).toEqual([{ id: 's2' }]);
    expect((await queries.sessionOf('c1')).row).toEqual({ id: 's1' });
  });
});
