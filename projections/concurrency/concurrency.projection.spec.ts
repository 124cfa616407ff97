import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { BUCKET_MS, concurrencyProjection } from './concurrency.projection';
import { concurrencyQueries } from './queries';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const B0 = T0 / BUCKET_MS;

const started = (id: string, minutes: number, over: Record<string, unknown> = {}) => ({
  stream: `conversation-${id}`,
  type: 'ConversationStarted',
  data: {
    conversationId: id,
    accountId: 'acme',
    agentId: 'ag1',
    environment: 'live',
    channel: 'VOICE-SIP',
    variantId: '',
    variantName: '',
    language: 'en-GB',
    startedAt: at(minutes),
    ...over,
  },
});
const turn = (id: string, minutes: number) => ({
  stream: `conversation-${id}`,
  type: 'TurnRecorded',
  data: { turnIndex: 1, agentResponseAt: at(minutes) },
});
const ended = (id: string, minutes: number) => ({
  stream: `conversation-${id}`,
  type: 'ConversationEnded',
  data: { reason: 'user', endedAt: at(minutes) },
});
const number = (id: string, agentNumber: string) => ({
  stream: `conversation-${id}`,
  type: 'StateChanged',
  data: { changes: { agent_number: agentNumber, caller_number: '+15550000000' } },
});

describe('concurrency projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(concurrencyProjection);
  });
  afterEach(() => rm.close());

  const series = (over: Record<string, unknown> = {}) =>
    concurrencyQueries({ source: () => rm.source }).series({
      agentId: 'ag1',
      environment: 'live',
      fromBucket: B0,
      toBucket: B0 + 12,
      ...over,
    });

  it('counts a conversation in every interval from its first event to its last, under the agent number', async () => {
    await rm.given(started('a', 1), number('a', '+15550100001'), turn('a', 7), ended('a', 12));
    await rm.given(started('b', 6, { channel: 'CHAT' }), number('b', ''), ended('b', 6));
    expect(await series()).toEqual([
      { bucket: B0, conversations: 1, slice: {} },
      { bucket: B0 + 1, conversations: 2, slice: {} },
      { bucket: B0 + 2, conversations: 1, slice: {} },
    ]);
    expect(await series({ sliceBy: 'phone_number' })).toEqual([
      { bucket: B0, conversations: 1, slice: { phone_number: '+15550100001' } },
      { bucket: B0 + 1, conversations: 1, slice: { phone_number: '' } },
      { bucket: B0 + 1, conversations: 1, slice: { phone_number: '+15550100001' } },
      { bucket: B0 + 2, conversations: 1, slice: { phone_number: '+15550100001' } },
    ]);
    expect(await series({ channels: ['CHAT'] })).toEqual([{ bucket: B0 + 1, conversations: 1, slice: {} }]);
    expect(await series({ phoneNumber: '+15550100001', fromBucket: B0 + 2 })).toEqual([
      { bucket: B0 + 2, conversations: 1, slice: {} },
    ]);
    expect(await series({ environment: 'sandbox' })).toEqual([]);
  });

  it('slices by variant (id and name), language and channel; filters combine', async () => {
    await rm.given(
      started('a', 0, { variantId: 'v1', variantName: 'Blue', language: 'en-GB' }),
      started('b', 0, { variantId: 'v2', variantName: 'Red', language: 'fr-FR', channel: 'SMS' }),
      started('c', 0, { variantId: 'v1', variantName: 'Blue', language: 'fr-FR' }),
    );
    expect(await series({ sliceBy: 'variant' })).toEqual([
      { bucket: B0, conversations: 2, slice: { variant_id: 'v1', variant_name: 'Blue' } },
      { bucket: B0, conversations: 1, slice: { variant_id: 'v2', variant_name: 'Red' } },
    ]);
    expect(await series({ sliceBy: 'language', variantName: 'Blue' })).toEqual([
      { bucket: B0, conversations: 1, slice: { language: 'en-GB' } },
      { bucket: B0, conversations: 1, slice: { language: 'fr-FR' } },
    ]);
    expect(await series({ sliceBy: 'channel', language: 'fr-FR' })).toEqual([
      { bucket: B0, conversations: 1, slice: { channel: 'SMS' } },
      { bucket: B0, conversations: 1, slice: { channel: 'VOICE-SIP' } },
    ]);
  });
});
