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
    summary: "Start a debug chat on an environment, or on a branch's draft: the greeting",
    description:
      '`clientEnv` talks to the deployment active in that environment (none: 400 `CHAT_DRAFT_NOT_EXIST`). ' +
      "`branchId` instead talks to the branch's content as it is now, without a merge (draft chat): the " +
      'conversation runs in environment `draft`, listed by the Conversations API only with `client_env=draft`, ' +
      'and every turn reads the branch again. Both: 400. An unknown branch: 404 `BRANCH_NOT_FOUND`; a merged ' +
      'one: 409 `BRANCH_MERGED`.',
    errors: [404, 409],
    example: { clientEnv: 'sandbox' },
    responses: { 201: { description: 'The greeting and the turn metadata', schema: answer } },
  },
  turn: {
    summary: 'Send a message (or none, to collect a delayed response)',
    description:
      'Send the `clientEnv` the conversation runs in, or for a draft chat the same `branchId` (another one: 400 ' +
      '`CLIENT_ENV_MISMATCH`; an unknown branch: 404 `BRANCH_NOT_FOUND`; a branch merged since: 409 `BRANCH_MERGED`).',
    errors: [404, 409, 410],
    example: { clientEnv: 'sandbox', message: 'when are you open' },
    responses: { 200: { description: 'The answer and the turn metadata', schema: answer } },
  },
});
