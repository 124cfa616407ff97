import {
  conversationDecider,
  type ConversationCommand,
  type ConversationState,
} from '../conversations/conversation.decider';
import type { ConversationEvent } from '../conversations/conversation.events';
import { eventTurn } from './event-turn';

const NOW = '2026-01-01T00:00:00.000Z';
const started: ConversationEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 'c1',
    accountId: 'a',
    agentId: 'g',
    deploymentId: 'd',
    version: 1,
    environment: 'sandbox',
    channel: 'CHAT',
    fromNumber: '',
    toNumber: '',
    variantId: '',
    variantName: '',
    language: 'en-GB',
    startedAt: NOW,
  },
};
const awaited: ConversationEvent = { type: 'ExternalEventAwaited', data: { name: 'payment', eventId: 'e1' } };
const given = (...events: ConversationEvent[]): ConversationState =>
  events.reduce(conversationDecider.evolve, conversationDecider.initialState());
const topics = [
  {
    id: 't1',
    name: 'Event:Payment',
    content: 'Paid $state.external_events.payment.payload.amount',
    exampleQueries: [],
    actions: 'set_state key=paid value=yes',
    isActive: true,
  },
];

function receive(state: ConversationState, eventId = 'e1'): ConversationCommand {
  const payload = { event_id: eventId, payload: { amount: '3' } };
  const response = eventTurn({
    name: 'payment',
    topics,
    state: { ...state.state, external_events: { payment: payload } },
    receivedAt: NOW,
    language: 'en-GB',
    newId: () => 'n1',
  });
  return {
    type: 'ReceiveExternalEvent',
    event: { eventId, name: 'payment', contentType: 'application/json', body: 'e30=', receivedAt: NOW },
    payload,
    response,
  };
}

describe('conversation decider: external events', () => {
  it('binds an awaited event: recorded, state under external_events, a delayed agent turn', () => {
    const state = given(started, awaited);
    const events = conversationDecider.decide(receive(state), state);
    expect(events.map((e) => e.type)).toEqual([
      'ExternalEventReceived',
      'StateChanged',
      'TurnRecorded',
      'StateChanged',
    ]);
    expect(events[1].data).toEqual({
      changes: { external_events: { payment: { event_id: 'e1', payload: { amount: '3' } } } },
    });
    expect(events[2].data).toMatchObject({
      turnIndex: 0,
      delayedResponse: true,
      agentResponse: 'Paid 3',
      citedTopic: 'Event:Payment',
    });
    expect(events[3].data).toEqual({ changes: { paid: 'yes' } });
    const after = events.reduce(conversationDecider.evolve, state);
    expect(after.pendingDelayed.map((t) => t.turnIndex)).toEqual([0]);
    expect(after.received).toEqual({ e1: true });
  });

  it('applies an id once', () => {
    const state = given(started, awaited);
    const after = conversationDecider.decide(receive(state), state).reduce(conversationDecider.evolve, state);
    expect(conversationDecider.decide(receive(after), after)).toEqual([]);
  });

  it('records an event of an ended conversation without a turn', () => {
    const state = given(started, awaited, { type: 'ConversationEnded', data: { reason: 'agent', endedAt: NOW } });
    const events = conversationDecider.decide(receive(state), state);
    expect(events.map((e) => e.type)).toEqual(['ExternalEventReceived', 'StateChanged']);
    expect(events[0].data).toMatchObject({ agentTurn: false });
  });

  it('refuses an id the conversation does not await', () => {
    const state = given(started, awaited);
    expect(() => conversationDecider.decide(receive(state, 'other'), state)).toThrow(
      expect.objectContaining({ code: 'EXTERNAL_EVENT_UNKNOWN' }),
    );
  });

  it('acknowledges a delayed response once', () => {
    const state = given(started, awaited);
    const after = conversationDecider.decide(receive(state), state).reduce(conversationDecider.evolve, state);
    const ack = conversationDecider.decide({ type: 'AcknowledgeDelayedResponse', turnIndex: 0, now: NOW }, after);
    expect(ack).toEqual([{ type: 'DelayedResponseDelivered', data: { turnIndex: 0, deliveredAt: NOW } }]);
    const done = ack.reduce(conversationDecider.evolve, after);
    expect(done.pendingDelayed).toEqual([]);
    expect(conversationDecider.decide({ type: 'AcknowledgeDelayedResponse', turnIndex: 0, now: NOW }, done)).toEqual(
      [],
    );
  });

  it('answers with a default acknowledgement without an event topic', () => {
    const turn = eventTurn({
      name: 'id_check',
      topics: [],
      state: {},
      receivedAt: NOW,
      language: 'en-GB',
      newId: () => 'x',
    });
    expect(turn.turn.agentResponse).toBe('Thanks for waiting: the id check result has arrived.');
    expect(turn.effects).toEqual({ stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false });
  });
});
