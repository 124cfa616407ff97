import { patient } from '../../test/support/patience';
import type { Topic } from './agent.events';
import { applyChanges, threeWayMerge, type Content } from './merge';

const topic = (name: string, over: Partial<Topic> = {}): Topic => ({
  id: `t-${name}`,
  name,
  content: `${name} content`,
  exampleQueries: [`about ${name}`, `${name}?`],
  actions: '',
  isActive: true,
  ...over,
});

const content = (behavior: string, topics: Topic[]): Content => ({
  behavior,
  topics: new Map(topics.map((t) => [t.name, t])),
  tests: new Map(),
  settings: {},
});

/** `n` topics, as main holds them after a merge (its own objects). */
const big = (n: number): Content =>
  content(
    'Be helpful.',
    Array.from({ length: n }, (_, i) => topic(`topic-${String(i).padStart(5, '0')}`)),
  );

/** A copy with fresh topic objects (equal by value, not by reference): the worst case for comparisons. */
const deepCopy = (c: Content): Content =>
  content(
    c.behavior,
    [...c.topics.values()].map((t) => ({ ...t, exampleQueries: [...t.exampleQueries] })),
  );

function withTopic(c: Content, t: Topic): Content {
  return { ...c, topics: new Map(c.topics).set(t.name, t) };
}

/**
 * Best of several runs, after a warm-up, so that JIT and GC noise do not decide the result; in the
 * process's CPU time, not the wall clock, so other processes taking the cores (CI runs two test
 * files at once, on a machine that may be busy besides) do not count as the merge's time.
 */
function timeMs(fn: () => void, runs = 5): number {
  fn();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * A 2,000-topic merge's budget: 50 ms on a quiet machine, stretched by the suite's patience factor
 * because CI runs two test files at once on two slow cores, where it ran past 50. What catches a
 * quadratic merge is the growth test below, which compares two sizes in one run.
 */
const MERGE_BUDGET_MS = patient(50);

describe('threeWayMerge', () => {
  describe('linear behaviour', () => {
    it('merges a branch that changed 1 of 2,000 topics quickly, with only that topic in changes', () => {
      const base = big(2000);
      const ours = base; // main did not move since the branch was cut
      const changed = topic('topic-01234', { content: 'new content' });
      const theirs = withTopic(base, changed);

      let outcome = threeWayMerge(base, ours, theirs);
      const ms = timeMs(() => {
        outcome = threeWayMerge(base, ours, theirs);
      });
      expect(ms).toBeLessThan(MERGE_BUDGET_MS);
      expect(outcome).toEqual({ ok: true, changes: { upserted: [changed], removed: [] } });
    });

    it('stays quick when every topic is a distinct but equal object on each side (value comparison)', () => {
      const base = big(2000);
      const ours = deepCopy(base);
      const changed = topic('topic-00007', { content: 'edited on the branch' });
      const theirs = withTopic(deepCopy(base), changed);

      let outcome = threeWayMerge(base, ours, theirs);
      const ms = timeMs(() => {
        outcome = threeWayMerge(base, ours, theirs);
      });
      expect(ms).toBeLessThan(MERGE_BUDGET_MS);
      expect(outcome.ok).toBe(true);
      if (outcome.ok) {
        expect(outcome.changes.upserted.map((t) => t.name)).toEqual(['topic-00007']);
        expect(outcome.changes.removed).toEqual([]);
        expect(outcome.changes.behavior).toBeUndefined();
      }
    });

    it("main's own change to another topic is not in changes (it is already on main)", () => {
      const base = big(2000);
      const ours = withTopic(base, topic('topic-00001', { content: 'main moved on' }));
      const theirs = withTopic(base, topic('topic-01999', { content: 'branch edit' }));
      const outcome = threeWayMerge(base, ours, theirs);
      expect(outcome.ok && outcome.changes.upserted.map((t) => t.name)).toEqual(['topic-01999']);
    });

    it('grows linearly: 8× the topics costs far less than 64× the time (a quadratic merge would)', () => {
      // A ratio measured in one run, so a slow or busy machine slows both sides alike: the two sizes
      // take turns, each keeps its best time. Linear work costs about 16× here (40,000 topics fall
      // out of the CPU's caches); quadratic would be 64× and more. The small side is large enough
      // (a few ms) that timer and scheduling noise does not decide the ratio.
      const sized = (n: number) => {
        const base = big(n);
        return { base, theirs: withTopic(base, topic('topic-00042', { content: 'x' })) };
      };
      const small = sized(5000);
      const large = sized(40_000);
      let smallMs = Infinity;
      let largeMs = Infinity;
      for (let round = 0; round < 3; round++) {
        smallMs = Math.min(
          smallMs,
          timeMs(() => threeWayMerge(small.base, small.base, small.theirs)),
        );
        largeMs = Math.min(
          largeMs,
          timeMs(() => threeWayMerge(large.base, large.base, large.theirs)),
        );
      }
      expect(largeMs / smallMs).toBeLessThan(40);
      expect(largeMs).toBeLessThan(MERGE_BUDGET_MS * 20);
    });

    it('applyChanges of one upsert onto 2,000 topics is quick and changes only that topic', () => {
      const main = big(2000);
      const changed = topic('topic-00500', { content: 'applied' });
      let next = main;
      const ms = timeMs(() => {
        next = applyChanges(main, { upserted: [changed], removed: [] });
      });
      expect(ms).toBeLessThan(MERGE_BUDGET_MS);
      expect(next.topics.size).toBe(2000);
      expect(next.topics.get('topic-00500')).toEqual(changed);
      // main itself is not mutated: earlier versions stay what they were
      expect(main.topics.get('topic-00500')!.content).toBe('topic-00500 content');
    });
  });

  describe('item by item', () => {
    const base = content('b', [topic('a'), topic('b'), topic('c')]);

    it('nothing changed on the branch: no changes', () => {
      expect(threeWayMerge(base, base, base)).toEqual({ ok: true, changes: { upserted: [], removed: [] } });
    });

    it('branch-only changes: behavior, edit, add, remove', () => {
      const theirs = content('b2', [topic('a', { content: 'A2' }), topic('c'), topic('d')]);
      const outcome = threeWayMerge(base, base, theirs);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.changes.behavior).toBe('b2');
      expect(outcome.changes.upserted.map((t) => [t.name, t.content]).sort()).toEqual([
        ['a', 'A2'],
        ['d', 'd content'],
      ]);
      expect(outcome.changes.removed).toEqual(['b']);
      const merged = applyChanges(base, outcome.changes);
      expect([...merged.topics.keys()].sort()).toEqual(['a', 'c', 'd']);
      expect(merged.behavior).toBe('b2');
    });

    it('main-only changes are kept and do not appear in changes', () => {
      const ours = content('main b', [topic('a', { content: 'main A' }), topic('c'), topic('m')]);
      const outcome = threeWayMerge(base, ours, base);
      expect(outcome).toEqual({ ok: true, changes: { upserted: [], removed: [] } });
    });

    it('conflicts name the path, ours, theirs and base', () => {
      const ours = content('ours', [
        topic('a', { content: 'ours A' }),
        topic('c', { content: 'ours C' }),
        topic('n', { content: 'ours N' }),
      ]);
      const theirs = content('theirs', [
        topic('a', { content: 'theirs A' }),
        topic('b', { content: 'theirs B' }),
        topic('n', { content: 'theirs N' }),
      ]);
      // a: edited differently; b: removed on main, edited on the branch; c: edited on main, removed on the branch; n: added on both
      const outcome = threeWayMerge(base, ours, theirs);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      const byPath = new Map(outcome.conflicts.map((c) => [c.path.join('/'), c]));
      expect([...byPath.keys()].sort()).toEqual(['behavior', 'topics/a', 'topics/b', 'topics/c', 'topics/n']);
      expect(byPath.get('behavior')).toEqual({ path: ['behavior'], ours: 'ours', theirs: 'theirs', base: 'b' });
      expect(byPath.get('topics/a')).toMatchObject({
        ours: { content: 'ours A' },
        theirs: { content: 'theirs A' },
        base: { content: 'a content' },
      });
      expect(byPath.get('topics/b')!.ours ?? null).toBeNull();
      expect(byPath.get('topics/b')).toMatchObject({ theirs: { content: 'theirs B' }, base: { content: 'b content' } });
      expect(byPath.get('topics/c')!.theirs ?? null).toBeNull();
      expect(byPath.get('topics/c')).toMatchObject({ ours: { content: 'ours C' }, base: { content: 'c content' } });
      expect(byPath.get('topics/n')!.base ?? null).toBeNull();
      expect(byPath.get('topics/n')).toMatchObject({ ours: { content: 'ours N' }, theirs: { content: 'theirs N' } });
    });

    it('resolutions settle conflicts: ours, theirs, base and an explicit value', () => {
      const ours = content('ours', [topic('a', { content: 'ours A' }), topic('b'), topic('c', { content: 'ours C' })]);
      const theirs = content('theirs', [
        topic('a', { content: 'theirs A' }),
        topic('b'),
        topic('c', { content: 'theirs C' }),
      ]);
      const outcome = threeWayMerge(base, ours, theirs, [
        { path: ['behavior'], strategy: 'base' },
        { path: ['topics', 'a'], strategy: 'theirs' },
        {
          path: ['topics', 'c'],
          strategy: 'ours',
          value: { content: 'explicit C', exampleQueries: { queries: ['q'] } },
        },
      ]);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const merged = applyChanges(ours, outcome.changes);
      expect(merged.behavior).toBe('b');
      expect(merged.topics.get('a')!.content).toBe('theirs A');
      expect(merged.topics.get('c')).toMatchObject({ name: 'c', content: 'explicit C', exampleQueries: ['q'] });
    });
  });

  describe('test cases (contract §19): merged by name like topics', () => {
    const test = (name: string, user: string) => ({ id: `test_${name}`, name, turns: [{ user }], state: {} });
    const withTests = (c: Content, ...tests: ReturnType<typeof test>[]): Content => ({
      ...c,
      tests: new Map(tests.map((t) => [t.name, t])),
    });
    const base = withTests(content('', []), test('greets', 'hello'));

    it('a case only the branch changed or added is taken; one it removed is removed', () => {
      const theirs = withTests(base, test('greets', 'hi there'), test('asks', 'hours?'));
      const outcome = threeWayMerge(base, base, theirs);
      expect(outcome.ok && outcome.changes.tests?.upserted.map((t) => t.turns[0].user).sort()).toEqual([
        'hi there',
        'hours?',
      ]);
      const removed = threeWayMerge(base, base, withTests(base));
      expect(removed.ok && removed.changes.tests).toEqual({ upserted: [], removed: ['greets'] });
      expect(threeWayMerge(base, base, base)).toEqual({ ok: true, changes: { upserted: [], removed: [] } });
    });

    it('both sides changed one case differently: a conflict at ["tests", name], settled by a resolution', () => {
      const ours = withTests(base, test('greets', 'from main'));
      const theirs = withTests(base, test('greets', 'from branch'));
      const outcome = threeWayMerge(base, ours, theirs);
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.conflicts.map((c) => c.path)).toEqual([['tests', 'greets']]);
      const settled = threeWayMerge(base, ours, theirs, [{ path: ['tests', 'greets'], strategy: 'theirs' }]);
      expect(settled.ok && settled.changes.tests?.upserted.map((t) => t.turns[0].user)).toEqual(['from branch']);
    });
  });
});
