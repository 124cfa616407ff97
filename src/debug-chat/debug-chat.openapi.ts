import { routeDocs } from '../openapi/route-docs';
import { arr, bool, map, obj, str } from '../openapi/schema-helpers';
import { DebugChatController } from './debug-chat.controller';

const answer = obj({
  conversationId: str,
  userInput: str,
  response: str,
  metadata: obj(
    { state: map() },
    {
      currentNode: str,
      nodeTrace: arr(str),
      metrics: map(),
      functionEvents: arr({}),
      handoffDestination: str,
      retrievedTopics: arr(str),
      retrievedSources: arr(str),
      citedTopic: str,
      llmRequests: arr({}),
    },
  ),
  conversationEnded: bool,
  delayedResponse: bool,
});

export const debugChatDocs = routeDocs(DebugChatController, 'debug-chat', {
  start: {
    summary: 'Start a debug chat on an environment: the greeting',
    errors: [404],
    example: { clientEnv: 'sandbox' },
    responses: { 201: { description: 'The greeting and the turn metadata', schema: answer } },
  },
  turn: {
    summary: 'Send a message (or none, to collect a delayed response)',
    errors: [404, 410],
    example: { clientEnv: 'sandbox', message: 'when are you open' },
    responses: { 200: { description: 'The answer and the turn metadata', schema: answer } },
  },
});
