import { DomainError } from '../errors/domain-error';
import {
  accountRef,
  agentRef,
  branchRef,
  parseAccountId,
  parseAgentId,
  parseBranchId,
  tryParseAgentId,
} from './prefixed-ids';

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('prefixed ids (interface.md "Identifier conventions", contract §2)', () => {
  it.each([
    ['ws-abc123', 'abc123'],
    ['ACCOUNT-abc123', 'abc123'],
    ['abc123', 'abc123'],
    ['ws-a_b-c', 'a_b-c'],
  ])('parseAccountId(%p) = %p', (raw, bare) => {
    expect(parseAccountId(raw)).toBe(bare);
  });

  it.each([
    ['PROJECT-ag1', 'ag1'],
    ['ag1', 'ag1'],
  ])('parseAgentId(%p) = %p', (raw, bare) => {
    expect(parseAgentId(raw)).toBe(bare);
  });

  it.each([
    ['BRANCH-br1', 'br1'],
    ['br1', 'br1'],
  ])('parseBranchId(%p) = %p', (raw, bare) => {
    expect(parseBranchId(raw)).toBe(bare);
  });

  it.each(['', 'ws-', 'ACCOUNT-', 'ws-a/b', 'a b', '../etc', 'ws-' + 'x'.repeat(65), '-abc', 'ws-ü'])(
    'parseAccountId refuses %p with 400 INVALID_ACCOUNT_ID',
    (raw) => {
      const error = refusal(() => parseAccountId(raw));
      expect(error.status).toBe(400);
      expect(error.code).toBe('INVALID_ACCOUNT_ID');
    },
  );

  it.each(['', 'PROJECT-', 'PROJECT-a.b', 'a%2Fb'])('parseAgentId refuses %p with 400 INVALID_AGENT_ID', (raw) => {
    const error = refusal(() => parseAgentId(raw));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_AGENT_ID');
  });

  it('parseBranchId refuses malformed ids with 400 INVALID_BRANCH_ID', () => {
    expect(refusal(() => parseBranchId('BRANCH-')).code).toBe('INVALID_BRANCH_ID');
  });

  it('refs add the prefixes; main stays main', () => {
    expect(accountRef('abc')).toBe('ws-abc');
    expect(agentRef('ag1')).toBe('PROJECT-ag1');
    expect(branchRef('br1')).toBe('BRANCH-br1');
    expect(branchRef('main')).toBe('main');
  });

  it('parse(ref(x)) = x', () => {
    for (const bare of ['abc', 'a1b2c3d4', 'x_y-z']) {
      expect(parseAccountId(accountRef(bare))).toBe(bare);
      expect(parseAgentId(agentRef(bare))).toBe(bare);
      expect(parseBranchId(branchRef(bare))).toBe(bare);
    }
  });

  it('tryParseAgentId answers null instead of throwing', () => {
    expect(tryParseAgentId('PROJECT-ag1')).toBe('ag1');
    expect(tryParseAgentId('ag1')).toBe('ag1');
    expect(tryParseAgentId('PROJECT-')).toBeNull();
    expect(tryParseAgentId(42)).toBeNull();
    expect(tryParseAgentId(null)).toBeNull();
    expect(tryParseAgentId(undefined)).toBeNull();
  });
});
