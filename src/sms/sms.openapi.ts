import { routeDocs } from '../openapi/route-docs';
import { arr, nullable, obj, str, time } from '../openapi/schema-helpers';
import { SmsAdminController } from './sms-admin.controller';
import { SmsController } from './sms.controller';

export const smsDocs = routeDocs(SmsController, 'sms', {
  outbound: {
    summary: 'Text a user from an agent number (X-TOKEN-ID: the SMS connector id)',
    errors: [404],
    example: { user_number: '+447700900123', message: 'Your order shipped.' },
    responses: { 202: { description: 'Queued', schema: obj({ conversation_id: str, agent_number: str }) } },
  },
  inbound: {
    summary: "The carrier's webhook: an inbound text, signed with the connector's webhook secret",
    description: 'X-Signature: `sha256=<hex HMAC-SHA256(webhookSecret, raw body)>`; a bad signature is 401.',
    errors: [401, 404],
    body: {
      schema: obj({ from: str, to: str, text: str, provider_message_id: str }),
      example: { from: '+447700900123', to: '+15550100001', text: 'when do you open', provider_message_id: 'SM1' },
    },
    responses: { 200: { description: 'Received', schema: obj({ conversation_id: str, status: str }) } },
  },
});

export const smsAdminDocs = routeDocs(SmsAdminController, 'operator', {
  messages: {
    summary: 'What the embedded carrier delivered (the latest 1000, oldest first)',
    query: [{ name: 'number', description: 'to or from this E.164 number', schema: str }],
    responses: {
      200: {
        description: 'The messages',
        schema: obj({
          messages: arr(
            obj({
              id: str,
              conversation_id: nullable(str),
              from: str,
              to: str,
              text: str,
              status: str,
              carrier: nullable(str),
              provider_message_id: nullable(str),
              error: nullable(str),
              sent_at: time,
            }),
          ),
        }),
      },
    },
  },
});
