import type { Decider } from '../commands/decider';
import { conflict, DomainError } from '../platform/errors/domain-error';
import type { EndpointSettings, SealedSigningSecret, WebhookEndpointsEvent } from './webhook-endpoint.events';

/** Endpoints per account (contract §13); deleted endpoints do not count. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 10;

export interface WebhookEndpointsState {
  /** live endpoints by id */
  endpoints: ReadonlyMap<string, EndpointSettings>;
  deleted: ReadonlySet<string>;
}

export type WebhookEndpointsCommand =
  | {
      type: 'CreateEndpoint';
      endpointId: string;
      accountId: string;
      settings: EndpointSettings;
      secret: SealedSigningSecret;
      now: string;
    }
  | { type: 'UpdateEndpoint'; endpointId: string; accountId: string; changes: Partial<EndpointSettings>; now: string }
  | { type: 'RotateSecret'; endpointId: string; accountId: string; secret: SealedSigningSecret; now: string }
  | { type: 'DeleteEndpoint'; endpointId: string; accountId: string; now: string };

const initialState = (): WebhookEndpointsState => ({ endpoints: new Map(), deleted: new Set() });

const notFound = () => new DomainError('WEBHOOK_ENDPOINT_NOT_FOUND', 'webhook endpoint not found', 404);

/** Sealed headers differ on every seal (fresh IV): they are the same when their digests are. */
function same<K extends keyof EndpointSettings>(key: K, a: EndpointSettings[K], b: EndpointSettings[K]): boolean {
  if (key === 'headers') return (a as EndpointSettings['headers']).digest === (b as EndpointSettings['headers']).digest;
  if (key === 'eventTypes') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function evolve(s: WebhookEndpointsState, event: WebhookEndpointsEvent): WebhookEndpointsState {
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { endpointId, name, url, enabled, eventTypes, headers, timeoutMs } = event.data;
      return {
        ...s,
        endpoints: new Map(s.endpoints).set(endpointId, { name, url, enabled, eventTypes, headers, timeoutMs }),
      };
    }
    case 'WebhookEndpointUpdated': {
      const current = s.endpoints.get(event.data.endpointId);
      if (!current) return s;
      return {
        ...s,
        endpoints: new Map(s.endpoints).set(event.data.endpointId, { ...current, ...event.data.changes }),
      };
    }
    case 'WebhookEndpointSecretRotated':
      return s;
    case 'WebhookEndpointDeleted': {
      const endpoints = new Map(s.endpoints);
      endpoints.delete(event.data.endpointId);
      return { endpoints, deleted: new Set(s.deleted).add(event.data.endpointId) };
    }
  }
}

function decide(command: WebhookEndpointsCommand, s: WebhookEndpointsState): WebhookEndpointsEvent[] {
  const { endpointId, accountId } = command;
  switch (command.type) {
    case 'CreateEndpoint':
      if (s.endpoints.has(endpointId) || s.deleted.has(endpointId))
        throw conflict('WEBHOOK_ENDPOINT_EXISTS', 'a webhook endpoint with this id exists');
      if (s.endpoints.size >= MAX_ENDPOINTS_PER_ACCOUNT) {
        throw conflict(
          'WEBHOOK_ENDPOINT_LIMIT',
          `an account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`,
        );
      }
      return [
        {
          type: 'WebhookEndpointCreated',
          data: { endpointId, accountId, ...command.settings, ...command.secret, createdAt: command.now },
        },
      ];
    case 'UpdateEndpoint': {
      const current = s.endpoints.get(endpointId);
      if (!current) throw notFound();
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([key, value]) =>
            value !== undefined && !same(key as keyof EndpointSettings, current[key as keyof EndpointSettings], value),
        ),
      ) as Partial<EndpointSettings>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'WebhookEndpointUpdated', data: { endpointId, accountId, changes, updatedAt: command.now } }];
    }
    case 'RotateSecret':
      if (!s.endpoints.has(endpointId)) throw notFound();
      return [
        {
          type: 'WebhookEndpointSecretRotated',
          data: { endpointId, accountId, ...command.secret, rotatedAt: command.now },
        },
      ];
    case 'DeleteEndpoint':
      if (!s.endpoints.has(endpointId)) throw notFound();
      return [{ type: 'WebhookEndpointDeleted', data: { endpointId, accountId, deletedAt: command.now } }];
  }
}

export const webhookEndpointsDecider: Decider<WebhookEndpointsState, WebhookEndpointsCommand, WebhookEndpointsEvent> = {
  initialState,
  evolve,
  decide,
};
