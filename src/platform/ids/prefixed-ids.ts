import { badRequest } from '../errors/domain-error';

/**
 * Ids travel prefixed (`ws-<id>`, `PROJECT-<id>`, `BRANCH-<id>`) and are stored bare. Paths accept
 * both forms, and the older `ACCOUNT-<id>` for accounts (interface.md "Identifier conventions").
 */
const BARE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function parse(raw: string, prefixes: string[], what: string, code: string): string {
  for (const prefix of prefixes) {
    if (raw.startsWith(prefix)) {
      const bare = raw.slice(prefix.length);
      if (BARE.test(bare)) return bare;
      throw badRequest(code, `${what} ${JSON.stringify(raw)} is malformed`);
    }
  }
  if (BARE.test(raw)) return raw;
  throw badRequest(code, `${what} ${JSON.stringify(raw)} is malformed`);
}

export const parseAccountId = (raw: string) => parse(raw, ['ws-', 'ACCOUNT-'], 'account id', 'INVALID_ACCOUNT_ID');
export const parseAgentId = (raw: string) => parse(raw, ['PROJECT-'], 'agent id', 'INVALID_AGENT_ID');
export const parseBranchId = (raw: string) => parse(raw, ['BRANCH-'], 'branch id', 'INVALID_BRANCH_ID');

export const accountRef = (bare: string) => `ws-${bare}`;
export const agentRef = (bare: string) => `PROJECT-${bare}`;
export const branchRef = (bare: string) => (bare === 'main' ? 'main' : `BRANCH-${bare}`);

/** Like parse*, but answers null instead of throwing: for bodies validated elsewhere. */
export function tryParseAgentId(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  try {
    return parseAgentId(raw);
  } catch {
    return null;
  }
}
