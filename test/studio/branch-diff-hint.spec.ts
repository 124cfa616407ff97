import type { Topic } from '../../studio/src/api/types';
import { describeDiff, diffContent } from '../../studio/src/diff';

const topic = (name: string, content = `${name} content`): Topic => ({
  id: `t-${name}`,
  name,
  content,
  actions: '',
  exampleQueries: { queries: [] },
  isActive: true,
});

/** Try it's hint on a branch (issue 50): what the draft answers with that main did not, in a few words. */
describe('describeDiff', () => {
  const main = { behavior: 'Be brief.', topics: [topic('Refunds'), topic('Delivery'), topic('Hours')] };

  it('counts the topics added, changed and removed against main, matched by name', () => {
    const branch = {
      behavior: 'Be brief.',
      topics: [topic('Refunds', 'Refunds take 3 days.'), topic('Delivery'), topic('Gift cards')],
    };
    expect(describeDiff(diffContent(main, branch))).toBe(
      'this branch changes 3 topics (1 added, 1 changed, 1 removed)',
    );
  });

  it('says one topic, and the behavior when it changed', () => {
    const branch = { behavior: 'Be kind.', topics: [...main.topics, topic('Gift cards')] };
    expect(describeDiff(diffContent(main, branch))).toBe('this branch changes 1 topic (1 added) and the behavior');
    expect(describeDiff(diffContent(main, { ...main, behavior: 'Be kind.' }))).toBe('this branch changes the behavior');
  });

  it('says so when the branch changes nothing yet', () => {
    expect(describeDiff(diffContent(main, main))).toBe('this branch changes no topic yet');
  });
});
