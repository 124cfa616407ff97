import { DomainError } from '../platform/errors/domain-error';
import { agentDecider, MAIN, type AgentCommand, type AgentState } from './agent.decider';
import type { AgentEvent, Topic } from './agent.events';
import { MAX_EXAMPLE_QUERIES, withExampleQuery } from './example-queries';

/* The learning loop's command (issue 54): words appended to a topic's example queries, once. */

const NOW = '2030-01-01T00:00:00.000Z';
type Cmd = AgentCommand extends infer C ? (C extends { now: string } ? Omit<C, 'now'> : never) : never;

const refunds: Topic = {
  id: 't-refunds',
  name: 'Refunds',
  content: 'Refunds take 5 days.',
  exampleQueries: ['how do refunds work'],
  actions: '',
  isActive: true,
};

function run(commands: Cmd[], state: AgentState = agentDecider.initialState()) {
  const events: AgentEvent[] = [];
  for (const command of commands) {
    const out = agentDecider.decide({ ...command, now: NOW } as AgentCommand, state);
    state = out.reduce(agentDecider.evolve, state);
    events.push(...out);
  }
  return { state, events };
}

const setup: Cmd[] = [
  { type: 'CreateAgent', agentId: 'ag1', accountId: 'acc1', name: 'Bot', greeting: 'Hi', languageCode: 'en-GB' },
  { type: 'CreateBranch', branchId: 'b1', branchName: 'fixes/2030-01-01' },
  { type: 'AddTopic', branchId: 'b1', topic: refunds },
];
const learn = (query: string, topicId = 't-refunds', branchId = 'b1'): Cmd => ({
  type: 'AddExampleQuery',
  branchId,
  topicId,
  query,
});

function refusal(commands: Cmd[]): { status: number; code: string } {
  try {
    run(commands);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return { status: (error as DomainError).status, code: (error as DomainError).code };
  }
  throw new Error('no refusal');
}

describe('AddExampleQuery', () => {
  it('records a TopicEdited with the words appended, the rest of the topic as it was', () => {
    const { state } = run(setup);
    const { events } = run([learn('  can I get my money back ')], state);
    const topic = { ...refunds, exampleQueries: ['how do refunds work', 'can I get my money back'] };
    expect(events).toEqual([{ type: 'TopicEdited', data: { agentId: 'ag1', branchId: 'b1', topic, editedAt: NOW } }]);
  });

  it('records nothing for words the topic has, whatever their case, accents, punctuation and spacing', () => {
    const { state } = run([...setup, learn('Can I get my money back?')]);
    for (const same of [
      'can i get my money back',
      'CAN I GET MY MONEY BACK!!',
      'can  I get my mońey back',
      'How do refunds work?',
    ])
      expect(run([learn(same)], state).events).toEqual([]);
    expect(run([learn('can I get my money back now')], state).events).toHaveLength(1);
  });

  it('refuses as a topic edit does: unknown topic or branch 404, main 422, a merged branch 409', () => {
    expect(refusal([...setup, learn('x y', 't-nope')])).toEqual({ status: 404, code: 'TOPIC_NOT_FOUND' });
    expect(refusal([...setup, learn('x y', 't-refunds', 'b-nope')])).toEqual({ status: 404, code: 'BRANCH_NOT_FOUND' });
    expect(refusal([...setup, learn('x y', 't-refunds', MAIN)])).toEqual({ status: 422, code: 'MAIN_READ_ONLY' });
    const merged: Cmd = {
      type: 'MergeBranch',
      branchId: 'b1',
      message: 'm',
      resolutions: [],
      deploymentId: 'd1',
      actor: 'key_1',
    };
    expect(refusal([...setup, merged, learn('x y')])).toEqual({ status: 409, code: 'BRANCH_MERGED' });
  });

  it('refuses words a topic could not hold (422): none, too long, or one query past the most', () => {
    expect(refusal([...setup, learn(' ?! ')])).toEqual({ status: 422, code: 'EXAMPLE_QUERY_EMPTY' });
    expect(refusal([...setup, learn('a'.repeat(1001))])).toEqual({ status: 422, code: 'EXAMPLE_QUERY_TOO_LONG' });
    const full = Array.from({ length: MAX_EXAMPLE_QUERIES }, (_, i) => `question ${i}`);
    expect(() => withExampleQuery(full, 'one more')).toThrow('remove one first');
    // words it has already are still no change, full or not
    expect(withExampleQuery(full, 'Question 7')).toBeNull();
  });
});
