import { DomainError } from '../platform/errors/domain-error';
import { dniPoolDecider, reservationAt, type DniPoolCommand, type DniPoolState } from './dni-pool.decider';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const base = { agentId: 'ag', environment: 'live' };
const add = (number: string): DniPoolCommand => ({ type: 'AddNumber', ...base, number, now: at(0) });
const reserve = (id: string, s: number, ttlS = 900): DniPoolCommand => ({
  type: 'Reserve',
  ...base,
  reservationId: id,
  attributes: { shared_id: id },
  ttlS,
  now: at(s),
});

function run(commands: DniPoolCommand[], state: DniPoolState = dniPoolDecider.initialState()) {
  for (const command of commands) state = dniPoolDecider.decide(command, state).reduce(dniPoolDecider.evolve, state);
  return state;
}

function refusal(command: DniPoolCommand, state: DniPoolState): DomainError {
  try {
    dniPoolDecider.decide(command, state);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('not refused');
}

describe('DNI pool', () => {
  it('reserves each number to one reservation until it expires, then 503 with the wait until the soonest expiry', () => {
    const state = run([add('+15550000001'), add('+15550000002'), reserve('r1', 0, 600), reserve('r2', 10, 120)]);
    expect(reservationAt(state, '+15550000001', at(599))?.reservationId).toBe('r1');
    expect(reservationAt(state, '+15550000002', at(100))?.reservationId).toBe('r2');
    expect(refusal(reserve('r3', 20), state)).toMatchObject({
      code: 'DNI_POOL_EXHAUSTED',
      status: 503,
      headers: { 'retry-after': '110' },
    });
    // r2 expired at 130 s: its number is free again
    const after = run([reserve('r3', 130)], state);
    expect(reservationAt(after, '+15550000002', at(131))?.reservationId).toBe('r3');
    expect(reservationAt(after, '+15550000001', at(600))).toBeNull();
  });

  it('an empty pool answers 503 too; adding and removing numbers is idempotent', () => {
    expect(refusal(reserve('r1', 0), run([]))).toMatchObject({ code: 'DNI_POOL_EXHAUSTED', status: 503 });
    const state = run([add('+15550000001')]);
    expect(dniPoolDecider.decide(add('+15550000001'), state)).toEqual([]);
    const removed = run([{ type: 'RemoveNumber', ...base, number: '+15550000001', now: at(1) }], state);
    expect(removed.numbers).toEqual({});
  });
});
