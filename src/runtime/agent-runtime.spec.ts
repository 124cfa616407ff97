import type { ServedContent } from '../agents/deployment-content';
import { AgentRuntime, FALLBACK_RESPONSE, SILENCE_RESPONSE } from './agent-runtime';
import { TopicIndex } from './retrieval/topic-index';
import { TopicIndexes } from './topic-indexes';

const content = (topics: ServedContent['topics']): ServedContent => ({
  agentId: 'ag',
  accountId: 'acc',
  deploymentId: `dep-${Math.random()}`,
  environment: 'sandbox',
  version: 1,
  greeting: 'Hello!',
  languageCode: 'en-GB',
  behavior: '',
  topics,
});
const topic = (id: string, name: string, text: string, queries: string[], actions = '') => ({
  id,
  name,
  content: text,
  exampleQueries: queries,
  actions,
  isActive: true,
});
const served = content([
  topic('t1', 'Refunds', 'Refunds take 5 days.', ['can I get a refund', 'money back']),
  topic('t2', 'Opening hours', 'We open at 9.', ['when do you open', 'opening times']),
  topic(
    't3',
    'Broken',
    'Something odd.',
    ['broken action please'],
    'set_state key=a value=1\nfly_to_the_moon speed=fast\nnot a "valid line',
  ),
]);
let n = 0;
const input = (text: string) => ({
  text,
  state: { conversation_id: 'c1' },
  asrLangCode: 'en-GB',
  ttsLangCode: 'en-GB',
  metadata: {},
  receivedAt: '2026-01-01T00:00:00.000Z',
  newId: () => `id${++n}`,
});

describe('AgentRuntime (embedded)', () => {
  const runtime = new AgentRuntime();

  it('greets with the deployment greeting', () => {
    expect(runtime.greet(served, input('')).turn).toMatchObject({
      userInput: '',
      agentResponse: 'Hello!',
      currentNode: 'greeting',
    });
  });

  it('starts building the retrieval index with the greeting, and the first turn uses that build', async () => {
    let builds = 0;
    const warmed = new AgentRuntime(
      null,
      new TopicIndexes(async (topics) => {
        builds++;
        return TopicIndex.build(topics);
      }),
    );
    const fresh = content(served.topics);
    warmed.greet(fresh, input(''));
    expect(builds).toBe(1);
    expect((await warmed.respond(fresh, input('a refund please'))).turn.citedTopic).toBe('Refunds');
    expect(builds).toBe(1);
  });

  it('cites the best topic and answers with its content, timing each stage', async () => {
    const { turn } = await runtime.respond(served, input('I want my money back, a refund'));
    expect(turn).toMatchObject({
      agentResponse: 'Refunds take 5 days.',
      citedTopic: 'Refunds',
      isOod: false,
      currentNode: 'topic:Refunds',
    });
    expect(turn.retrievedTopics[0]).toBe('Refunds');
    expect(Object.keys(turn.latency.stages)).toEqual(['retrieval', 'generation', 'actions']);
    expect(turn.latency.total_s).toBeGreaterThanOrEqual(0);
  });

  it('answers the fallback and marks out of domain below the threshold; silence for empty input', async () => {
    expect((await runtime.respond(served, input('quantum chromodynamics lecture notes'))).turn).toMatchObject({
      agentResponse: FALLBACK_RESPONSE,
      isOod: true,
      citedTopic: '',
    });
    expect((await runtime.respond(served, input('   '))).turn).toMatchObject({
      agentResponse: SILENCE_RESPONSE,
      isSilence: true,
      isOod: false,
    });
  });

  it('turns bad action lines into function errors and still runs the good ones', async () => {
    const r = await runtime.respond(served, input('broken action please'));
    expect(r.state).toMatchObject({ a: '1' });
    expect(r.turn.functionErrors).toBe(2);
    expect(
      r.turn.functionEvents
        .filter((f) => f.status === 'error')
        .map((f) => f.name)
        .sort(),
    ).toEqual(['fly_to_the_moon', 'invalid_action']);
  });
});
