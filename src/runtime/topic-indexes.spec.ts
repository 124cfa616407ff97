import type { ServedContent } from '../agents/deployment-content';
import { TopicIndex, type IndexableTopic } from './retrieval/topic-index';
import { TopicIndexes } from './topic-indexes';

const topic = {
  id: 't1',
  name: 'Refunds',
  content: 'Refunds take 5 days.',
  exampleQueries: ['money back'],
  actions: '',
  isActive: true,
};
const content = (deploymentId: string): ServedContent => ({
  agentId: 'ag',
  accountId: 'acc',
  deploymentId,
  environment: 'sandbox',
  version: 1,
  greeting: 'Hi',
  languageCode: 'en-GB',
  behavior: '',
  topics: [topic],
});

/** A build the test finishes when it chooses, counting the calls. */
function controlledBuild() {
  const calls: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const build = (topics: ReadonlyArray<IndexableTopic>) =>
    new Promise<TopicIndex>((resolve, reject) =>
      calls.push({ resolve: () => resolve(TopicIndex.build(topics)), reject }),
    );
  return { calls, build };
}

describe('TopicIndexes', () => {
  it('builds a deployment once: turns arriving during the build wait for that build', async () => {
    const { calls, build } = controlledBuild();
    const indexes = new TopicIndexes(build);
    const first = indexes.of(content('d1'));
    const second = indexes.of(content('d1'));
    expect(calls).toHaveLength(1);
    calls[0].resolve();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(a.index.search('refund money back')[0].topicId).toBe('t1');
    expect(a.topics.get('t1')).toEqual(topic);
    await indexes.of(content('d1'));
    expect(calls).toHaveLength(1);
    indexes.of(content('d2')).catch(() => undefined);
    expect(calls).toHaveLength(2);
  });

  it('forgets a failed build, so the next turn builds again', async () => {
    const { calls, build } = controlledBuild();
    const indexes = new TopicIndexes(build);
    const failed = indexes.of(content('d1'));
    calls[0].reject(new Error('thread died'));
    await expect(failed).rejects.toThrow('thread died');
    const retried = indexes.of(content('d1'));
    expect(calls).toHaveLength(2);
    calls[1].resolve();
    await expect(retried).resolves.toMatchObject({ topics: expect.any(Map) });
  });

  it('warm starts the build without waiting, and swallows its failure (the turn that needs it sees it)', async () => {
    const { calls, build } = controlledBuild();
    const indexes = new TopicIndexes(build);
    indexes.warm(content('d1'));
    expect(calls).toHaveLength(1);
    calls[0].reject(new Error('no'));
    await new Promise((resolve) => setImmediate(resolve));
    indexes.warm(content('d1'));
    expect(calls).toHaveLength(2);
  });

  it('keeps the indexes of the last 200 deployments', async () => {
    let builds = 0;
    const indexes = new TopicIndexes(async (topics) => {
      builds++;
      return TopicIndex.build(topics);
    });
    for (let i = 0; i <= 200; i++) await indexes.of(content(`d${i}`));
    expect(builds).toBe(201);
    await indexes.of(content('d200'));
    await indexes.of(content('d1'));
    expect(builds).toBe(201);
    await indexes.of(content('d0'));
    expect(builds).toBe(202);
  });

  it("keeps a draft's index per content version: an unchanged branch reuses it, an edit builds anew", async () => {
    const { calls, build } = controlledBuild();
    const indexes = new TopicIndexes(build);
    const draft = (version: number): ServedContent => ({
      ...content('draft:b1'),
      draft: { branchId: 'b1', version },
    });
    const first = indexes.of(draft(3));
    calls[0].resolve();
    const a = await first;
    expect(await indexes.of(draft(3))).toBe(a);
    expect(calls).toHaveLength(1);
    const edited = indexes.of(draft(4));
    expect(calls).toHaveLength(2);
    calls[1].resolve();
    expect(await edited).not.toBe(a);
    expect(await indexes.of(draft(4))).toBe(await edited);
    expect(calls).toHaveLength(2);
  });
});
