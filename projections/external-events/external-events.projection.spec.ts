import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { externalEventsProjection } from './external-events.projection';
import { externalEventsQueries } from './queries';

describe('external-events projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(externalEventsProjection);
  });
  afterEach(() => rm.close());

  it('given a conversation that awaits an event: the awaited row carries its owner, then when it was received', async () => {
    await rm.given(
      {
        stream: 'conversation-c1',
        type: 'ConversationStarted',
        data: { conversationId: 'c1', accountId: 'acme', agentId: 'ag1' },
      },
      { stream: 'conversation-c1', type: 'ExternalEventAwaited', data: { eventId: 'ev1', name: 'payment' } },
      // a conversation never started has no owner: nothing is recorded for it
      { stream: 'conversation-c2', type: 'ExternalEventAwaited', data: { eventId: 'ev2', name: 'payment' } },
    );
    const queries = externalEventsQueries({ source: () => rm.source });
    expect((await queries.awaited('ev1')).row).toEqual({
      conversation_id: 'c1',
      name: 'payment',
      account_id: 'acme',
      agent_id: 'ag1',
    });
    expect((await queries.awaited('ev2')).row).toBeUndefined();
    await rm.given({
      stream: 'conversation-c1',
      type: 'ExternalEventReceived',
      data: { eventId: 'ev1', receivedAt: '2026-05-01T00:05:00.000Z' },
    });
    expect(await rm.rows('SELECT event_id, received_at FROM awaited_external_event')).toEqual([
      { event_id: 'ev1', received_at: '2026-05-01T00:05:00.000Z' },
    ]);
  });
});
