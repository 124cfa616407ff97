import { DomainError } from '../platform/errors/domain-error';
import { outboundCallDecider, statusView, type OutboundCallCommand } from './outbound-call.decider';
import type { OutboundCallEvent, QueuedCall } from './outbound-call.events';

const SID = 'OUT-00000000-0000-4000-8000-000000000001';
const T0 = '2026-01-01T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const call: QueuedCall = {
  callSid: SID,
  accountId: 'acc1',
  agentId: 'ag1',
  deploymentId: 'dep1',
  environment: 'sandbox',
  fromNumber: '+15550100001',
  toNumber: '+15551234567',
  countryCode: null,
  metadata: { order: '1' },
  encryption: 'TLS/SRTP',
  carrier: 'simulator',
  queuedAt: T0,
};

const given = (...commands: OutboundCallCommand[]) => {
  let state = outboundCallDecider.initialState();
  const events: OutboundCallEvent[] = [];
  for (const command of commands) {
    const decided = outboundCallDecider.decide(command, state);
    events.push(...decided);
    state = decided.reduce(outboundCallDecider.evolve, state);
  }
  return { state, events };
};

const queue: OutboundCallCommand = { type: 'QueueCall', call };
const end = (
  s: number,
  reason: 'busy' | 'no-answer' | 'error' = 'error',
  hungUpBy: 'callee' | 'agent' | null = null,
): OutboundCallCommand => ({ type: 'EndCall', reason, hungUpBy, sipStatus: null, now: at(s) });

describe('outbound call decider', () => {
  it('queued → calling → answered → ended is a success, whoever hung up', () => {
    const { state, events } = given(
      queue,
      { type: 'Dial', now: at(1) },
      { type: 'Ring', now: at(1) },
      { type: 'Answer', now: at(4) },
      end(9, 'error', 'callee'),
    );
    expect(events.map((e) => e.type)).toEqual([
      'OutboundCallQueued',
      'OutboundCallDialing',
      'OutboundCallRinging',
      'OutboundCallAnswered',
      'OutboundCallEnded',
    ]);
    expect(events[4].data).toEqual({
      callSid: SID,
      status: 'success',
      reason: null,
      hungUpBy: 'callee',
      sipStatus: null,
      at: at(9),
    });
    expect(statusView(state, Date.parse(at(10)))).toEqual({ call_sid: SID, status: 'success', reason: null });
  });

  it('a call that never connected fails with the reason the network gave', () => {
    const busy = given(queue, { type: 'Dial', now: at(1) }, end(3, 'busy'));
    expect(statusView(busy.state, Date.parse(at(3)))).toEqual({ call_sid: SID, status: 'failure', reason: 'busy' });
    const unanswered = given(queue, { type: 'Dial', now: at(1) }, end(31, 'no-answer'));
    expect(unanswered.state).toMatchObject({ status: 'failure', reason: 'no-answer' });
  });

  it('shows each status on the way: queued, then calling (also while connected)', () => {
    expect(statusView(given(queue).state, Date.parse(T0))?.status).toBe('queued');
    expect(statusView(given(queue, { type: 'Dial', now: at(1) }).state, Date.parse(at(1)))?.status).toBe('calling');
    expect(
      statusView(given(queue, { type: 'Dial', now: at(1) }, { type: 'Answer', now: at(2) }).state, Date.parse(at(2)))
        ?.status,
    ).toBe('calling');
  });

  it('late and repeated reports decide nothing (retransmissions, timers firing again)', () => {
    const { state } = given(queue, { type: 'Dial', now: at(1) }, { type: 'Answer', now: at(2) });
    expect(outboundCallDecider.decide({ type: 'Dial', now: at(3) }, state)).toEqual([]);
    expect(outboundCallDecider.decide({ type: 'Answer', now: at(3) }, state)).toEqual([]);
    expect(outboundCallDecider.decide({ type: 'Ring', now: at(3) }, state)).toEqual([]);
    const ended = given(queue, end(1, 'no-answer')).state;
    expect(outboundCallDecider.decide(end(2), ended)).toEqual([]);
    expect(outboundCallDecider.decide({ type: 'Answer', now: at(2) }, ended)).toEqual([]);
  });

  it('an answer reported without the dial before it implies the dial', () => {
    const { events } = given(queue, { type: 'Answer', now: at(2) });
    expect(events.map((e) => e.type)).toEqual(['OutboundCallQueued', 'OutboundCallDialing', 'OutboundCallAnswered']);
  });

  it('refuses a second queueing of one sid, and reports on a call that does not exist', () => {
    expect(() => given(queue, queue)).toThrow(expect.objectContaining({ code: 'CALL_EXISTS', status: 409 }));
    expect(() => given({ type: 'Dial', now: at(1) })).toThrow(DomainError);
  });

  it('keeps the status 2 hours after the end, then shows nothing (404); a call still going never expires', () => {
    const { state } = given(queue, end(10, 'busy'));
    expect(statusView(state, Date.parse(at(10 + 7200)) - 1)).not.toBeNull();
    expect(statusView(state, Date.parse(at(10 + 7200)))).toBeNull();
    expect(statusView(given(queue).state, Date.parse(at(365 * 24 * 3600)))).not.toBeNull();
    expect(statusView(outboundCallDecider.initialState(), 0)).toBeNull();
  });
});
