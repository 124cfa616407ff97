import type { DataSource } from 'typeorm';
import { webhookEndpointsProjection } from './webhook-endpoints.projection';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { positionOf } from '../../src/event-store/position';
import { applyBatch } from '../../src/read-models/apply/apply-batch';
import { describeEachReadModelDatabase } from '../../test/support/read-model-databases';
import { SubscribedEndpoints } from './subscribed-endpoints';
import type { EndpointSettings, WebhookEndpointsEvent } from '../../src/webhooks/webhook-endpoint.events';

const at = '2026-05-01T12:00:00.000Z';
const settings: EndpointSettings = {
  name: 'hook',
  url: 'https://example.com/hook',
  enabled: true,
  eventTypes: ['alerts.triggered'],
  headers: { sealed: 'sealed-headers', digest: 'd' },
  timeoutMs: 5000,
};

/** The events of this test at the log positions given: what the projection reads. */
function recorded(entries: Array<[number, WebhookEndpointsEvent]>): RecordedEvent[] {
  return entries.map(([n, event]) => ({
    id: `event-${n}`,
    streamId: `webhook-endpoints-${(event.data as { accountId: string }).accountId}`,
    revision: BigInt(n),
    position: positionOf(BigInt(n)),
    type: event.type,
    data: event.data,
    metadata: { schemaVersion: 1, actor: 'test', correlationId: 'c', causationId: null, occurredAt: at },
  }));
}

const created = (
  endpointId: string,
  overrides: Partial<EndpointSettings> = {},
  accountId = 'acme',
): WebhookEndpointsEvent => ({
  type: 'WebhookEndpointCreated',
  data: {
    endpointId,
    accountId,
    ...settings,
    ...overrides,
    sealedSecret: 'sealed-secret',
    secretLast4: 'abcd',
    createdAt: at,
  },
});
const updated = (endpointId: string, changes: Partial<EndpointSettings>): WebhookEndpointsEvent => ({
  type: 'WebhookEndpointUpdated',
  data: { endpointId, accountId: 'acme', changes, updatedAt: at },
});
const deleted = (endpointId: string): WebhookEndpointsEvent => ({
  type: 'WebhookEndpointDeleted',
  data: { endpointId, accountId: 'acme', deletedAt: at },
});

/** The webhook-endpoints projection on a real read-model generation, read the way the delivery machinery reads it. */
describeEachReadModelDatabase('subscribed endpoints', (open) => {
  let source: DataSource;
  let endpoints: SubscribedEndpoints;

  beforeEach(async () => {
    source = await open(webhookEndpointsProjection);
    endpoints = new SubscribedEndpoints(() => source);
  });

  const listening = async (
    n: number,
    type: 'alerts.triggered' | 'alerts.resolved' = 'alerts.triggered',
    accountId = 'acme',
  ) => (await endpoints.listeningAt(accountId, type, positionOf(BigInt(n)))).sort();

  it('an event at Q goes to what listened just before Q: created before it, not yet disabled, deleted or unsubscribed', async () => {
    expect(await endpoints.anyEverListened()).toBe(false);
    await applyBatch(
      source,
      webhookEndpointsProjection,
      recorded([
        [10, created('whe_a')],
        [11, created('whe_b', { eventTypes: ['alerts.resolved'] })],
        [12, created('whe_c', { enabled: false })],
        [13, created('whe_e', {}, 'other')],
        [20, created('whe_late')],
        [30, updated('whe_a', { enabled: false })],
        [31, updated('whe_c', { enabled: true })],
        [32, updated('whe_b', { eventTypes: ['alerts.resolved', 'alerts.triggered'] })],
        [33, updated('whe_late', { name: 'renamed', url: 'https://example.com/other' })],
        [40, deleted('whe_late')],
      ]),
    );
    expect(await endpoints.anyEverListened()).toBe(true);
    // before any endpoint existed, and at the very position one was created
    expect(await listening(5)).toEqual([]);
    expect(await listening(10)).toEqual([]);
    expect(await listening(11)).toEqual(['whe_a']);
    expect(await listening(15)).toEqual(['whe_a']);
    expect(await listening(15, 'alerts.resolved')).toEqual(['whe_b']);
    expect(await listening(21)).toEqual(['whe_a', 'whe_late']);
    // an event between the creation and a later change is judged on the subscription of its time
    expect(await listening(30)).toEqual(['whe_a', 'whe_late']);
    expect(await listening(35)).toEqual(['whe_b', 'whe_c', 'whe_late']);
    expect(await listening(41)).toEqual(['whe_b', 'whe_c']);
    expect(await listening(41, 'alerts.triggered', 'other')).toEqual(['whe_e']);
    expect(await listening(41, 'alerts.triggered', 'nobody')).toEqual([]);
  });

  it('gives an attempt the endpoint as configured now, deleted and disabled ones marked', async () => {
    await applyBatch(
      source,
      webhookEndpointsProjection,
      recorded([
        [1, created('whe_a', { timeoutMs: 12000 })],
        [2, created('whe_b')],
        [3, updated('whe_a', { url: 'https://example.com/new', headers: { sealed: 'new-seal', digest: 'd2' } })],
        [
          4,
          {
            type: 'WebhookEndpointSecretRotated',
            data: {
              endpointId: 'whe_a',
              accountId: 'acme',
              sealedSecret: 'rotated',
              secretLast4: 'wxyz',
              rotatedAt: at,
            },
          },
        ],
        [5, deleted('whe_b')],
      ]),
    );
    expect(await endpoints.forDelivery('whe_a')).toEqual({
      id: 'whe_a',
      url: 'https://example.com/new',
      enabled: true,
      deleted: false,
      timeoutMs: 12000,
      sealedSecret: 'rotated',
      sealedHeaders: 'new-seal',
    });
    expect(await endpoints.forDelivery('whe_b')).toMatchObject({ deleted: true });
    expect(await endpoints.forDelivery('whe_none')).toBeUndefined();
    expect(endpoints.serving()).toBe(true);
    expect(
      new SubscribedEndpoints(() => {
        throw new Error('building');
      }).serving(),
    ).toBe(false);
  });
});
