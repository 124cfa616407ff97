import { chooseCallerId, type ProvisionedNumber } from './caller-id';

const n = (
  number: string,
  agentId: string,
  environment: string,
  provisionedAt = '2026-01-01T00:00:00.000Z',
): ProvisionedNumber => ({ number, agentId, environment, provisionedAt });
const all = () => true;

describe('chooseCallerId', () => {
  it('uses the named number, with its agent and the environment it maps to (dev → sandbox, sandbox → pre-release)', () => {
    const numbers = [n('+1555000001', 'a1', 'dev'), n('+1555000002', 'a1', 'sandbox')];
    expect(chooseCallerId(numbers, '+1555000001', all)).toEqual({
      number: '+1555000001',
      agentId: 'a1',
      environment: 'sandbox',
    });
    expect(chooseCallerId(numbers, '+1555000002', all)).toEqual({
      number: '+1555000002',
      agentId: 'a1',
      environment: 'pre-release',
    });
  });

  it('refuses a number the account does not hold (400) and one of an agent outside the key (403)', () => {
    expect(() => chooseCallerId([n('+1555000001', 'a1', 'dev')], '+1999', all)).toThrow(
      expect.objectContaining({ code: 'FROM_NUMBER_NOT_PROVISIONED', status: 400 }),
    );
    expect(() => chooseCallerId([n('+1555000001', 'a1', 'dev')], '+1555000001', (a) => a !== 'a1')).toThrow(
      expect.objectContaining({ code: 'AGENT_FORBIDDEN', status: 403 }),
    );
  });

  it('without a named number: the one agent the key reaches, live first, then the oldest', () => {
    const numbers = [
      n('+1555000001', 'a1', 'dev'),
      n('+1555000003', 'a1', 'live', '2026-02-01T00:00:00.000Z'),
      n('+1555000002', 'a1', 'live', '2026-01-15T00:00:00.000Z'),
      n('+1555000009', 'a2', 'live'),
    ];
    expect(chooseCallerId(numbers, undefined, (a) => a === 'a1')).toEqual({
      number: '+1555000002',
      agentId: 'a1',
      environment: 'live',
    });
  });

  it('without a named number: none reachable is 404, several agents is 400', () => {
    expect(() => chooseCallerId([], undefined, all)).toThrow(
      expect.objectContaining({ code: 'PHONE_NUMBER_NOT_FOUND', status: 404 }),
    );
    expect(() =>
      chooseCallerId([n('+1555000001', 'a1', 'dev'), n('+1555000002', 'a2', 'dev')], undefined, all),
    ).toThrow(expect.objectContaining({ code: 'FROM_NUMBER_REQUIRED', status: 400 }));
  });
});
