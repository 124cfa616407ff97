import { routeDocs } from '../openapi/route-docs';
import { bool, obj, str } from '../openapi/schema-helpers';
import { ChatApiController } from './chat-api.controller';

const handoff = obj({ destination: str, reason: str }, { shared_id: str });
const answer = obj({ conversation_id: str, response: str, end_conversation: bool }, { handoff });

export const chatApiDocs = routeDocs(ChatApiController, 'chat', {
  create: {
    summary: 'Start a chat: the greeting, or the answer to `message`',
    errors: [404],
    example: { user_id: 'u-1', message: 'when are you open', metadata: { order: 'A-17' }, client_env: 'live' },
    responses: { 201: { description: 'The conversation and its first answer', schema: answer } },
  },
  respond: {
    summary: 'Send a message in a chat',
    errors: [404, 410],
    example: { conversation_id: 'CHAT-…', message: 'and on Sundays?' },
    responses: { 200: { description: 'The answer', schema: answer } },
  },
  close: {
    summary: 'End a chat',
    errors: [404, 410],
    responses: { 200: { description: 'Ended', schema: obj({ success: { const: true } }) } },
  },
});
