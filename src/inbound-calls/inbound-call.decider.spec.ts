import { inboundCallDecider as d, type InboundCallCommand, type InboundCallState } from './inbound-call.decider';

const NOW = '2026-01-01T00:00:00.000Z';
const call = {
  callSid: 'IN-1',
  accountId: 'a',
  agentId: 'ag',
  environment: 'live',
  from: '+15550000001',
  to: '+15550000002',
  at: NOW,
};
const run = (commands: InboundCallCommand[], state: InboundCallState = d.initialState()) =>
  commands.reduce((s, c) => d.decide(c, s).reduce(d.evolve, s), state);

describe('inbound call', () => {
  it('rings, is answered, ends once', () => {
    const answered = run([
      { type: 'Ring', call },
      { type: 'Answer', deploymentId: 'dep', dniReservationId: '', now: NOW },
    ]);
    expect(answered.status).toBe('answered');
    const ended = run([{ type: 'End', hungUpBy: 'caller', now: NOW }], answered);
    expect(ended.status).toBe('ended');
    expect(d.decide({ type: 'End', hungUpBy: 'agent', now: NOW }, ended)).toEqual([]);
  });

  it('a call refused while ringing is recorded as failed with its reason, and is never answered after', () => {
    const failed = run([
      { type: 'Ring', call },
      { type: 'Fail', reason: 'concurrent-call-limit', now: NOW },
    ]);
    expect(failed).toMatchObject({ status: 'failed', reason: 'concurrent-call-limit' });
    expect(d.decide({ type: 'Answer', deploymentId: 'dep', dniReservationId: '', now: NOW }, failed)).toEqual([]);
    expect(d.decide({ type: 'End', hungUpBy: 'caller', now: NOW }, failed)).toEqual([]);
  });
});
