import { longestPause } from '../../../test/support/event-loop-pauses';
import { syntheticKnowledgeBase } from './synthetic';
import { TopicIndex, type IndexableTopic } from './topic-index';
import { INLINE_BUILD_MAX_CHARS, TopicIndexBuilder } from './topic-index-builder';

const sameAnswers = (a: TopicIndex, b: TopicIndex, queries: string[]) => {
  for (const q of queries) expect(a.search(q)).toEqual(b.search(q));
};

describe('TopicIndexBuilder: large knowledge bases are indexed on a thread', () => {
  const big = syntheticKnowledgeBase(3000, 300, 5);
  let builder: TopicIndexBuilder;

  beforeEach(() => {
    builder = new TopicIndexBuilder();
  });

  afterEach(async () => {
    await builder.close();
  });

  it('builds on the thread an index that answers as one built in place, while the event loop keeps turning', async () => {
    await builder.build(big.topics.slice(0, 200)); // the thread's start (and, from sources, its compile) is not the build
    expect(builder.threadBuilds).toBe(1);
    const inPlace = await longestPause(async () => TopicIndex.build(big.topics));
    const onThread = await longestPause(() => builder.build(big.topics));
    expect(builder.threadBuilds).toBe(2);
    sameAnswers(onThread.result, inPlace.result, [...big.queries.slice(0, 300), 'refnud cancelaton']);
    // what is left on the event loop: copying the topics out, taking the index's parts back in
    expect(onThread.maxBusyMs).toBeLessThan(inPlace.maxBusyMs / 4);
  });

  it('builds a small knowledge base in place: no thread for a few milliseconds of work', async () => {
    const small: IndexableTopic[] = [
      { id: 't1', name: 'Refunds', content: 'Refunds take 5 days.', exampleQueries: ['money back'], isActive: true },
    ];
    const index = await builder.build(small);
    expect(index.search('money back')[0].topicId).toBe('t1');
    expect(builder.threadBuilds).toBe(0);
  });

  it('counts only active topics towards the size, and indexes only them on the thread', async () => {
    const topics = big.topics.slice(0, 400);
    const inactive = topics.map((t) => ({ ...t, isActive: false }));
    await builder.build(inactive);
    expect(builder.threadBuilds).toBe(0);
    const mixed = topics.map((t, i) => ({ ...t, isActive: i % 2 === 0 }));
    const index = await builder.build(mixed);
    expect(builder.threadBuilds).toBe(1);
    expect(index.size).toBe(200);
    sameAnswers(index, TopicIndex.build(mixed), big.queries.slice(0, 100));
  });

  it('a build the thread dies in is done in place, and the next large build starts a new thread', async () => {
    const topics = big.topics.slice(0, 1000);
    expect(JSON.stringify(topics).length).toBeGreaterThan(INLINE_BUILD_MAX_CHARS);
    await builder.build(topics.slice(0, 100));
    const during = builder.build(topics);
    await builder.crash();
    const index = await during;
    sameAnswers(index, TopicIndex.build(topics), big.queries.slice(0, 100));
    const builtBefore = builder.threadBuilds;
    await builder.build(topics.slice(0, 300));
    expect(builder.threadBuilds).toBe(builtBefore + 1);
  });

  it('after close, builds are done in place', async () => {
    await builder.build(big.topics.slice(0, 100));
    await builder.close();
    const index = await builder.build(big.topics.slice(0, 300));
    expect(index.size).toBe(300);
    expect(builder.threadBuilds).toBe(1);
  });
});
