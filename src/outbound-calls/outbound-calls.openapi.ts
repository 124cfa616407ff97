import { routeDocs } from '../openapi/route-docs';
import { nullable, obj, str } from '../openapi/schema-helpers';
import { OutboundCallsController } from './outbound-calls.controller';

export const outboundCallsDocs = routeDocs(OutboundCallsController, 'outbound-calls', {
  place: {
    summary: 'Place an outbound call (each call is a conversation, id = call_sid)',
    errors: [404, 422],
    example: { to_number: '+447700900123', metadata: { order: 'A-17' } },
    responses: { 200: { description: 'The call', schema: obj({ call_sid: str }) } },
  },
  status: {
    summary: "A call's status (404 once retention has passed)",
    errors: [404],
    responses: {
      200: { description: 'The status', schema: obj({ call_sid: str, status: str, reason: nullable(str) }) },
    },
  },
});
