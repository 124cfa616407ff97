import { routeDocs } from '../openapi/route-docs';
import { obj, oneOf, str } from '../openapi/schema-helpers';
import { ExternalEventsController } from './external-events.controller';

export const externalEventsDocs = routeDocs(ExternalEventsController, 'handoff-and-external-events', {
  deliver: {
    summary: 'Deliver the result of asynchronous work into the conversation awaiting it',
    errors: [404, 409, 415],
    query: [
      { name: 'account_id', required: true, schema: str },
      { name: 'project_id', required: true, schema: str },
      { name: 'event_id_location', required: true, schema: oneOf('headers', 'querystring', 'payload') },
      { name: 'event_id_path', required: true, description: 'where the event id is in that location', schema: str },
    ],
    body: {
      schema: {},
      contentType: '*/*',
      required: false,
      example: { data: { id: 'evt-…', status: 'paid' } },
    },
    responses: { 201: { description: 'Queued for the conversation', schema: obj({ event_id: str, status: str }) } },
  },
});
