import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { smsSessionsQueries } from './queries';
import { smsSessionsProjection } from './sms-sessions.projection';

const stream = 'sms-session-c1';
const delivered = (messageId: string, from: string, to: string) => ({
  stream,
  type: 'SmsMessageDelivered',
  data: {
    messageId,
    conversationId: 'c1',
    from,
    to,
    text: messageId,
    carrier: 'http',
    providerMessageId: `p-${messageId}`,
    deliveredAt: '2026-05-01T00:00:10.000Z',
  },
});

describe('sms-sessions projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(smsSessionsProjection);
  });
  afterEach(() => rm.close());

  it('given a session and its texts: the session where it stands, and the texts in log order', async () => {
    await rm.given(
      {
        stream,
        type: 'SmsSessionOpened',
        data: {
          conversationId: 'c1',
          agentNumber: '+15550001',
          userNumber: '+15559999',
          route: { agentId: 'ag1', environment: 'live' },
          openedAt: '2026-05-01T00:00:00.000Z',
        },
      },
      delivered('m1', '+15550001', '+15559999'),
      {
        stream,
        type: 'SmsMessageFailed',
        data: {
          messageId: 'm2',
          conversationId: 'c1',
          from: '+15550001',
          to: '+15558888',
          text: 'm2',
          carrier: 'http',
          error: 'rejected',
          failedAt: '2026-05-01T00:00:20.000Z',
        },
      },
      delivered('m3', '+15550002', '+15557777'),
      { stream, type: 'SmsIdleWarningSent', data: { conversationId: 'c1', sentAt: '2026-05-01T00:05:00.000Z' } },
    );
    expect(await rm.rows('SELECT conversation_id, status, last_activity_at FROM sms_session')).toEqual([
      { conversation_id: 'c1', status: 'warning', last_activity_at: '2026-05-01T00:05:00.000Z' },
    ]);
    const queries = smsSessionsQueries({ source: () => rm.source });
    expect((await queries.latestMessages(null, 10)).map((m) => [m.id, m.status])).toEqual([
      ['m1', 'delivered'],
      ['m2', 'failed'],
      ['m3', 'delivered'],
    ]);
    expect((await queries.latestMessages('+15550001', 10)).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect((await queries.latestMessages(null, 2)).map((m) => m.id)).toEqual(['m2', 'm3']);
  });

  it("given ConversationErased: that conversation's texts and the number they went to read erased, as a rebuild reads them", async () => {
    await rm.given(delivered('m1', '+15550001', '+15559999'), {
      ...delivered('m2', '+15550001', '+15558888'),
      data: { ...delivered('m2', '+15550001', '+15558888').data, conversationId: 'c2' },
    });
    await rm.given({
      stream: 'conversation-c1',
      type: 'ConversationErased',
      data: { erasedAt: 'T', erasedBy: 'key_1' },
    });
    expect(
      await rm.rows('SELECT id, conversation_id, from_number, to_number, text FROM sms_message ORDER BY id'),
    ).toEqual([
      { id: 'm1', conversation_id: 'c1', from_number: '+15550001', to_number: '[erased]', text: '[erased]' },
      { id: 'm2', conversation_id: 'c2', from_number: '+15550001', to_number: '+15558888', text: 'm2' },
    ]);
  });
});
