import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { positionOf, type Position } from '../event-store/position';
import type { Clock } from '../platform/clock/clock';
import type { WebhookOutbox } from './outbox';
import type { SubscribedEndpoints } from '../../projections/webhook-endpoints/queries';
import { webhookEventsProcessManager } from './webhook-events.process-manager';

const at = '2026-05-01T12:00:00.000Z';

const alert = (n: number): RecordedEvent => ({
  id: `source-${n}`,
  streamId: 'alert-rule-ar_1',
  revision: 0n,
  position: positionOf(BigInt(n)),
  type: 'AlertRuleStateChanged',
  data: {
    ruleId: 'ar_1',
    accountId: 'acme',
    projectId: null,
    name: 'slow',
    metric: 'turn_latency_p95',
    from: 'ok',
    to: 'alert',
    since: at,
    currentValue: 1,
    evaluatedAt: at,
  },
  metadata: {
    schemaVersion: 1,
    actor: 'system:alert-evaluator',
    correlationId: 'c',
    causationId: null,
    occurredAt: at,
  },
});

/** The process manager with its collaborators recorded in the order it calls them. */
function harness(applied: () => Promise<void> = async () => undefined) {
  const calls: string[] = [];
  const endpoints = {
    anyEverListened: () => (calls.push('anyEverListened'), true),
    listeningAt: (accountId: string, type: string, position: Position) => (
      calls.push(`listeningAt ${accountId} ${type} ${position}`),
      ['whe_a']
    ),
  } as unknown as SubscribedEndpoints;
  const outbox = {
    enqueue: (accountId: string, _event: unknown, sourceEventId: string, ids: string[]) => (
      calls.push(`enqueue ${sourceEventId} ${ids.join(',')}`),
      ids.length
    ),
    cancelPending: (endpointId: string) => (calls.push(`cancelPending ${endpointId}`), 1),
  } as unknown as WebhookOutbox;
  const manager = webhookEventsProcessManager({
    store: {} as EventStore,
    outbox,
    endpoints,
    endpointsApplied: async (position) => {
      calls.push(`wait ${position}`);
      await applied();
    },
    clock: { nowIso: () => at } as Clock,
    onQueued: () => calls.push('poke'),
  });
  // as the runner does: the handler for the event's type, which was written for that type's data
  const handle = (event: RecordedEvent) => manager.handles[event.type](event as RecordedEvent<never>);
  return { handle, calls };
}

describe('webhook events process manager', () => {
  it('matches endpoints only once the endpoints read model has passed the event, at its position', async () => {
    const { handle, calls } = harness();
    await handle(alert(7));
    const p = positionOf(7n);
    expect(calls).toEqual([
      `wait ${p}`,
      'anyEverListened',
      `listeningAt acme alerts.triggered ${p}`,
      'enqueue source-7 whe_a',
      'poke',
    ]);
  });

  it('queues nothing while the read model lags past its bound (the runner retries the batch)', async () => {
    const { handle, calls } = harness(async () => {
      throw new Error('READ_MODEL_LAGGING');
    });
    await expect(handle(alert(7))).rejects.toThrow('READ_MODEL_LAGGING');
    expect(calls).toEqual([`wait ${positionOf(7n)}`]);
  });

  it('cancels a deleted endpoint’s pending deliveries on its deletion event', async () => {
    const { handle, calls } = harness();
    await handle({
      ...alert(9),
      type: 'WebhookEndpointDeleted',
      data: { endpointId: 'whe_a', accountId: 'acme', deletedAt: at },
    });
    expect(calls).toEqual(['cancelPending whe_a']);
  });
});
