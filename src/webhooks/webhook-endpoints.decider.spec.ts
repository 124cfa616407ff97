import { DomainError } from '../platform/errors/domain-error';
import type { EndpointSettings, WebhookEndpointsEvent } from './webhook-endpoint.events';
import {
  MAX_ENDPOINTS_PER_ACCOUNT,
  webhookEndpointsDecider,
  type WebhookEndpointsCommand,
  type WebhookEndpointsState,
} from './webhook-endpoints.decider';

const settings: EndpointSettings = {
  name: 'crm',
  url: 'https://crm.example.com/in',
  enabled: true,
  eventTypes: ['conversation.started'],
  headers: { sealed: 'v1.iv.tag.body', digest: 'd-empty' },
  timeoutMs: 5000,
};
const secret = { sealedSecret: 'v1.a.b.c', secretLast4: 'wxyz' };
const now = '2026-01-01T00:00:00.000Z';

function run(commands: WebhookEndpointsCommand[]): { state: WebhookEndpointsState; events: WebhookEndpointsEvent[] } {
  let state = webhookEndpointsDecider.initialState();
  const events: WebhookEndpointsEvent[] = [];
  for (const command of commands) {
    const decided = webhookEndpointsDecider.decide(command, state);
    events.push(...decided);
    state = decided.reduce(webhookEndpointsDecider.evolve, state);
  }
  return { state, events };
}

const create = (endpointId: string): WebhookEndpointsCommand => ({
  type: 'CreateEndpoint',
  endpointId,
  accountId: 'acc',
  settings,
  secret,
  now,
});
const update = (endpointId: string, changes: Partial<EndpointSettings>): WebhookEndpointsCommand => ({
  type: 'UpdateEndpoint',
  endpointId,
  accountId: 'acc',
  changes,
  now,
});
const remove = (endpointId: string): WebhookEndpointsCommand => ({
  type: 'DeleteEndpoint',
  endpointId,
  accountId: 'acc',
  now,
});
const rotate = (endpointId: string): WebhookEndpointsCommand => ({
  type: 'RotateSecret',
  endpointId,
  accountId: 'acc',
  secret: { sealedSecret: 'v1.n.e.w', secretLast4: 'abcd' },
  now,
});

function status(run_: () => unknown): number {
  try {
    run_();
  } catch (error) {
    return (error as DomainError).status;
  }
  return 0;
}

describe('webhook endpoints decider', () => {
  it('creates with the sealed secret, updates only what changed, rotates, deletes', () => {
    const { state, events } = run([
      create('whe_1'),
      update('whe_1', { timeoutMs: 9000, name: 'crm', eventTypes: ['conversation.started'] }),
      update('whe_1', { timeoutMs: 9000 }),
      rotate('whe_1'),
      remove('whe_1'),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'WebhookEndpointCreated',
      'WebhookEndpointUpdated',
      'WebhookEndpointSecretRotated',
      'WebhookEndpointDeleted',
    ]);
    expect(events[0].data).toMatchObject({
      endpointId: 'whe_1',
      accountId: 'acc',
      sealedSecret: 'v1.a.b.c',
      secretLast4: 'wxyz',
      createdAt: now,
    });
    expect(events[1].data).toEqual({
      endpointId: 'whe_1',
      accountId: 'acc',
      changes: { timeoutMs: 9000 },
      updatedAt: now,
    });
    expect(events[2].data).toMatchObject({ sealedSecret: 'v1.n.e.w', secretLast4: 'abcd' });
    expect(state.endpoints.size).toBe(0);
    expect(state.deleted.has('whe_1')).toBe(true);
  });

  it('compares headers by digest (a fresh seal of the same headers is no change) and event types by value', () => {
    const { state, events } = run([
      create('whe_1'),
      update('whe_1', {
        headers: { sealed: 'v1.other.seal.same', digest: 'd-empty' },
        eventTypes: ['conversation.started'],
      }),
      update('whe_1', {
        headers: { sealed: 'v1.x.y.z', digest: 'd-token' },
        eventTypes: ['conversation.started', 'handoff.created'],
      }),
    ]);
    expect(events.map((e) => e.type)).toEqual(['WebhookEndpointCreated', 'WebhookEndpointUpdated']);
    expect(events[1].data).toMatchObject({
      changes: {
        headers: { sealed: 'v1.x.y.z', digest: 'd-token' },
        eventTypes: ['conversation.started', 'handoff.created'],
      },
    });
    expect(state.endpoints.get('whe_1')).toMatchObject({
      headers: { digest: 'd-token' },
      eventTypes: ['conversation.started', 'handoff.created'],
    });
  });

  it(`refuses the ${MAX_ENDPOINTS_PER_ACCOUNT + 1}th live endpoint with 409, counting deleted ones out`, () => {
    const ten = Array.from({ length: MAX_ENDPOINTS_PER_ACCOUNT }, (_, i) => create(`whe_${i}`));
    const { state } = run(ten);
    expect(status(() => webhookEndpointsDecider.decide(create('whe_x'), state))).toBe(409);
    const freed = run([...ten, remove('whe_3'), create('whe_x')]);
    expect(freed.state.endpoints.size).toBe(MAX_ENDPOINTS_PER_ACCOUNT);
    expect(status(() => webhookEndpointsDecider.decide(create('whe_y'), freed.state))).toBe(409);
  });

  it('answers 404 for an endpoint that is unknown or deleted, and never reuses a deleted id', () => {
    const { state } = run([create('whe_1'), remove('whe_1')]);
    for (const command of [
      update('whe_1', { enabled: false }),
      rotate('whe_1'),
      remove('whe_1'),
      remove('whe_2'),
      rotate('whe_2'),
    ]) {
      expect(status(() => webhookEndpointsDecider.decide(command, state))).toBe(404);
    }
    expect(status(() => webhookEndpointsDecider.decide(create('whe_1'), state))).toBe(409);
  });
});
