import type { TestExpectation } from '../agents/agent.events';

/** What a test turn's answer did, as the expectation reads it. */
export interface TurnFacts {
  response: string;
  citedTopic: string;
  /** the actions that ran without error */
  actions: string[];
  handoff: boolean;
  outOfDomain: boolean;
  ended: boolean;
}

/**
 * Where an answer falls short of its expectation, one sentence per miss (empty: the turn passed).
 * `contains` and `not_contains` ignore case: a test should not break on a capital letter.
 */
export function failuresOf(expect: TestExpectation | undefined, facts: TurnFacts): string[] {
  if (!expect) return [];
  const failures: string[] = [];
  const response = facts.response.toLowerCase();
  if (expect.topic !== undefined && facts.citedTopic !== expect.topic)
    failures.push(`expected topic "${expect.topic}", got ${facts.citedTopic ? `"${facts.citedTopic}"` : 'none'}`);
  if (expect.contains !== undefined && !response.includes(expect.contains.toLowerCase()))
    failures.push(`expected the response to contain "${expect.contains}"`);
  if (expect.not_contains !== undefined && response.includes(expect.not_contains.toLowerCase()))
    failures.push(`expected the response not to contain "${expect.not_contains}"`);
  for (const action of expect.actions ?? [])
    if (!facts.actions.includes(action)) failures.push(`expected action ${action} to run`);
  const flags: Array<[boolean | undefined, boolean, string]> = [
    [expect.handoff, facts.handoff, 'a handoff'],
    [expect.out_of_domain, facts.outOfDomain, 'an out-of-domain answer'],
    [expect.end_conversation, facts.ended, 'the conversation to end'],
  ];
  for (const [wanted, got, what] of flags)
    if (wanted !== undefined && wanted !== got) failures.push(`${wanted ? 'expected' : 'did not expect'} ${what}`);
  return failures;
}
