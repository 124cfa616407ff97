import type { QueryParameter } from '../openapi/route-docs';
import { ref, routeDocs } from '../openapi/route-docs';
import { any, arr, bool, int, map, nullable, num, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { ConversationsApiController, HandoffController } from './conversations-api.controller';
import { OUTCOMES } from '../conversations/conversation.events';

const flag = (name: string, description: string): QueryParameter => ({
  name,
  description,
  schema: oneOf('true', 'false'),
});
const INCLUDES = [
  flag('include_latency', 'each turn with `latency: {total_s, stages}`'),
  flag('include_context_state', 'the conversation state'),
  flag('include_turn_metadata', 'each turn with its retrieval and action metadata'),
];
const LIST_QUERY: QueryParameter[] = [
  { name: 'start_time', description: 'ISO 8601', schema: str },
  { name: 'end_time', description: 'ISO 8601', schema: str },
  { name: 'limit', description: '1 to 5000 (default 5)', schema: { type: 'string', pattern: '^[0-9]+$' } },
  { name: 'offset', schema: { type: 'string', pattern: '^[0-9]+$' } },
  { name: 'cursor', description: 'the `cursor` of the previous page (v3)', schema: str },
  {
    name: 'client_env',
    description: 'default live; `draft`: draft chats on a branch',
    schema: oneOf('sandbox', 'pre-release', 'live', 'draft'),
  },
  { name: 'channel', repeated: true, schema: str },
  {
    name: 'outcome',
    description: 'post-call analysis outcome, repeatable (v3, v2); a conversation not analysed yet has none',
    repeated: true,
    schema: oneOf(...OUTCOMES),
  },
  { name: 'variant_id', schema: str },
  { name: 'variant_name', schema: str },
  flag('in_progress', 'only conversations in progress (true) or ended (false)'),
  { name: 'query_type', description: 'search mode (v3)', schema: oneOf('transcript', 'semantic') },
  { name: 'query', description: 'the search text, with query_type (v3)', schema: str },
  { name: 'turn_type', description: 'with query_type=transcript (v3)', schema: oneOf('user', 'agent') },
  { name: 'sample', description: 'a random sample of the range (v3)', schema: oneOf('random') },
  ...INCLUDES,
];

const turn = obj(
  { agent_response: nullable(str) },
  {
    user_input: nullable(str),
    user_input_datetime: nullable(time),
    agent_response_datetime: nullable(time),
    barge_in: bool,
    dtmf: str,
    interrupted: bool,
    intents: arr(any),
    entities: map(),
    is_ood: bool,
    is_silence: bool,
    latency: obj({ total_s: num }, { stages: map(num) }),
  },
);
/** Post-call analysis (contract §24): v3 and v2, null until the conversation ended and was analysed. */
const analysis = obj(
  {
    outcome: oneOf(...OUTCOMES),
    topics: arr(str),
    fields: map({ type: ['string', 'number', 'boolean', 'null'] }),
    analyser: oneOf('embedded', 'model'),
  },
  { summary: str },
);
const conversation = obj(
  { id: str, project_id: str, channel: str, started_at: time, in_progress: bool },
  {
    account_id: str,
    variant_id: nullable(str),
    variant_name: nullable(str),
    environment: str,
    from_number: nullable(str),
    to_number: nullable(str),
    num_turns: int,
    total_duration: num,
    handoff: bool,
    handoff_reason: nullable(str),
    handoff_destination: nullable(str),
    metrics: map(),
    state: map(),
    turns: arr(turn),
    analysis: nullable(analysis),
  },
);
const page = obj({ conversations: arr(ref('Conversation')) }, { cursor: nullable(str), next_offset: nullable(int) });
const event = obj(
  { position: str, revision: int, type: str, occurred_at: time, data: map() },
  { actor: nullable(str) },
);

const list = {
  summary: "A project's conversations, newest first",
  description:
    'v1 and v2 page with `offset`; v3 adds cursors, search and sampling. A key without the `conversations` ' +
    'permission gets the basic fields only (its data-access settings say which).',
  query: LIST_QUERY,
  errors: [404],
  responses: { 200: { description: 'A page of conversations', schema: page } },
};
const one = {
  summary: 'One conversation',
  errors: [404],
  query: [
    ...INCLUDES,
    { name: 'as_of', description: 'the conversation as it was at an ISO 8601 time or a stream revision', schema: str },
  ],
  responses: { 200: { description: 'The conversation', schema: ref('Conversation') } },
};

export const conversationsApiDocs = routeDocs(
  ConversationsApiController,
  'conversations',
  {
    list,
    one,
    events: {
      summary: "A conversation's audit history: its events, oldest first",
      errors: [404],
      responses: { 200: { description: 'The events', schema: obj({ events: arr(event) }) } },
    },
  },
  { Conversation: conversation },
);

export const handoffDocs = routeDocs(HandoffController, 'handoff-and-external-events', {
  state: {
    summary: 'The state the agent stored when it handed off (`shared_id` wins over `id`)',
    errors: [404],
    query: [
      { name: 'id', description: 'the conversation id', schema: str },
      { name: 'shared_id', description: 'the handoff shared id', schema: str },
    ],
    responses: {
      200: { description: 'The handoff state', schema: obj({ id: str, shared_id: nullable(str), data: any }) },
    },
  },
});
