import type { TestExpectation, TestTurn } from '../agents/agent.events';
import type { TestTurnDto } from './dto/test-case.dto';

const EXPECTATION_KEYS: Array<keyof TestExpectation> = [
  'topic',
  'contains',
  'not_contains',
  'actions',
  'handoff',
  'out_of_domain',
  'end_conversation',
];

/**
 * Turns as stored: plain objects, keys in one order and absent fields left out, so two equal cases
 * compare equal in a merge however their JSON was written.
 */
export function storedTurns(turns: TestTurnDto[]): TestTurn[] {
  return turns.map((t) => {
    if (!t.expect) return { user: t.user };
    const expect: TestExpectation = {};
    for (const key of EXPECTATION_KEYS) {
      const value = t.expect[key];
      if (value !== undefined) (expect as Record<string, unknown>)[key] = Array.isArray(value) ? [...value] : value;
    }
    return { user: t.user, expect };
  });
}
