import { badRequest } from '../platform/errors/domain-error';
import { queryParam } from '../platform/http/query-params';
import { EVENT_ID_LOCATIONS, type EventIdLocation } from './event-id';

/** The four query parameters of interface.md "External Events API". */
export interface WebhookQuery {
  location: EventIdLocation;
  path: string;
  accountId: string;
  projectId: string;
}

/**
 * All four are sent once (a repeated one is a 400 naming it) with each request; `event_id_path` may be empty (a text/plain body is then
 * the id). Other parameters are left alone: a sender may add its own to the URL.
 */
export function parseWebhookQuery(query: Record<string, unknown>): WebhookQuery {
  const field = (name: string, allowEmpty = false): string => {
    const value = queryParam(query, name);
    if (typeof value !== 'string' || (!allowEmpty && value.trim() === '')) {
      throw badRequest('VALIDATION_ERROR', `query parameter ${name} is required`, [
        { field: name, message: `${name} is required` },
      ]);
    }
    return value;
  };
  const location = field('event_id_location');
  if (!(EVENT_ID_LOCATIONS as readonly string[]).includes(location)) {
    const message = `event_id_location must be one of ${EVENT_ID_LOCATIONS.join(', ')}`;
    throw badRequest('VALIDATION_ERROR', message, [{ field: 'event_id_location', message }]);
  }
  return {
    location: location as EventIdLocation,
    path: field('event_id_path', true),
    accountId: field('account_id'),
    projectId: field('project_id'),
  };
}
