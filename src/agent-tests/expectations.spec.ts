import { failuresOf, type TurnFacts } from './expectations';

const facts = (over: Partial<TurnFacts> = {}): TurnFacts => ({
  response: 'We open at Nine.',
  citedTopic: 'Hours',
  actions: ['log_metric'],
  handoff: false,
  outOfDomain: false,
  ended: false,
  ...over,
});

describe('test expectations', () => {
  it('no expectation, or one that holds: no failures (contains ignores case)', () => {
    expect(failuresOf(undefined, facts())).toEqual([]);
    expect(
      failuresOf(
        { topic: 'Hours', contains: 'nine', not_contains: 'closed', actions: ['log_metric'], handoff: false },
        facts(),
      ),
    ).toEqual([]);
  });

  it('each miss is one sentence', () => {
    expect(
      failuresOf(
        {
          topic: 'Refunds',
          contains: 'ten',
          not_contains: 'NINE',
          actions: ['handoff'],
          handoff: true,
          out_of_domain: true,
          end_conversation: true,
        },
        facts({ citedTopic: '' }),
      ),
    ).toEqual([
      'expected topic "Refunds", got none',
      'expected the response to contain "ten"',
      'expected the response not to contain "NINE"',
      'expected action handoff to run',
      'expected a handoff',
      'expected an out-of-domain answer',
      'expected the conversation to end',
    ]);
    expect(failuresOf({ handoff: false }, facts({ handoff: true }))).toEqual(['did not expect a handoff']);
  });
});
