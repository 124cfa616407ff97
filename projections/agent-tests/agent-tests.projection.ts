import type { AgentEvent, TestCase } from '../../src/agents/agent.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { portableSql } from '../../src/platform/database/portable-sql';
import { BranchTestRow } from './agent-tests.entities';
import { AGENT_TESTS_READ_MODEL } from './name';

const on = handlerFor<AgentEvent>();
const MAIN = 'main';

const testRow = (agentId: string, branchId: string, t: TestCase): BranchTestRow => ({
  agentId,
  branchId,
  testId: t.id,
  name: t.name,
  turns: JSON.stringify(t.turns),
  state: JSON.stringify(t.state),
});

/**
 * Agent test cases on every branch (contract §19), from the agent streams. A branch starts as a
 * copy of main's cases; a merge applies its test changes onto main, as the agents read model does
 * for topics.
 */
export const agentTestsProjection = defineProjection({
  name: AGENT_TESTS_READ_MODEL,
  version: 1,
  entities: [BranchTestRow],
  handles: {
    BranchCreated: on<'BranchCreated'>(async ({ data }, em) => {
      await em.query(
        portableSql(
          em,
          `INSERT INTO branch_test (agent_id, branch_id, test_id, name, turns, state)
           SELECT agent_id, ?, test_id, name, turns, state FROM branch_test WHERE agent_id = ? AND branch_id = ?
           ON CONFLICT (agent_id, branch_id, test_id) DO UPDATE SET name = excluded.name, turns = excluded.turns, state = excluded.state`,
        ),
        [data.branchId, data.agentId, MAIN],
      );
    }),
    BranchDeleted: on<'BranchDeleted'>(async ({ data }, _em, rows) => {
      await rows.delete(BranchTestRow, { agentId: data.agentId, branchId: data.branchId });
    }),
    TestCaseAdded: on<'TestCaseAdded'>(async ({ data }, _em, rows) => {
      await rows.insert(BranchTestRow, testRow(data.agentId, data.branchId, data.test));
    }),
    TestCaseEdited: on<'TestCaseEdited'>(async ({ data }, _em, rows) => {
      const { agentId, testId, ...row } = testRow(data.agentId, data.branchId, data.test);
      await rows.update(BranchTestRow, { agentId, branchId: data.branchId, testId }, row);
    }),
    TestCaseRemoved: on<'TestCaseRemoved'>(async ({ data }, _em, rows) => {
      await rows.delete(BranchTestRow, { agentId: data.agentId, branchId: data.branchId, testId: data.testId });
    }),
    BranchMerged: on<'BranchMerged'>(async ({ data }, _em, rows) => {
      const tests = data.changes.tests;
      if (!tests) return;
      // All replaced rows go first: a renamed case may take a name another one just left.
      for (const name of [...tests.removed, ...tests.upserted.map((t) => t.name)])
        await rows.delete(BranchTestRow, { agentId: data.agentId, branchId: MAIN, name });
      for (const test of tests.upserted) await rows.insert(BranchTestRow, testRow(data.agentId, MAIN, test));
    }),
  },
});
