import { ref, routeDocs } from '../openapi/route-docs';
import { bool, obj, str } from '../openapi/schema-helpers';
import { ExampleQueriesController } from './example-queries.controller';

const learned = obj({ added: bool, query: str, branchId: str, topic: ref('Topic') });

export const exampleQueriesDocs = routeDocs(ExampleQueriesController, 'agents', {
  add: {
    summary: "Add a conversation turn's words to a topic's example queries on a branch",
    description:
      'The learning loop: "this should have been topic X". The words come from a user turn ' +
      '(`conversationId` and `turnIndex`, read server-side: the key also needs `conversations` and the ' +
      "project's data access must show transcripts, 403 otherwise) or are given as `query`. They go to " +
      '`topicId` of the branch (appended through the same command as a topic edit, so they are reviewed, ' +
      'merged and conflicted like one; words the topic already has, ignoring case, accents, punctuation ' +
      'and spacing, change nothing: 200 with `added: false`), or to a `newTopic` made with them as its ' +
      'first example query (201). Refusals: an unknown conversation (404 `CONVERSATION_NOT_FOUND`), turn ' +
      "(404 `TURN_NOT_FOUND`), branch or topic; a turn without the user's words, such as the greeting " +
      '(400 `NOT_A_USER_TURN`); words that were erased (422 `TURN_ERASED`) or recorded redacted ' +
      '(422 `TURN_REDACTED`); `main` (422) and merged branches (409), as every topic edit.',
    errors: [404, 409, 422],
    example: { conversationId: 'AS_CHAT_6f1c…', turnIndex: 1, topicId: 'topic_ab12cd34' },
    responses: {
      200: { description: 'Added to the topic (or it had the words already: `added: false`)', schema: learned },
      201: { description: 'A new topic made with the words', schema: learned },
    },
  },
});
