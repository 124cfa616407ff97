import { DomainError } from '../platform/errors/domain-error';
import { callLinesDecider, type CallLineCommand, type CallLinesState } from './call-lines.decider';

const NOW = '2026-01-01T00:00:00.000Z';
const take = (callSid: string, limit = 2): CallLineCommand => ({
  type: 'TakeLine',
  accountId: 'a',
  callSid,
  defaultLimit: limit,
  retryAfterS: 5,
  now: NOW,
});
const release = (callSid: string): CallLineCommand => ({ type: 'ReleaseLine', accountId: 'a', callSid, now: NOW });

function run(commands: CallLineCommand[], state: CallLinesState = callLinesDecider.initialState()): CallLinesState {
  for (const command of commands)
    state = callLinesDecider.decide(command, state).reduce(callLinesDecider.evolve, state);
  return state;
}

describe('call lines (the concurrent-call limit)', () => {
  it('takes lines up to the limit, then refuses with 429 and Retry-After', () => {
    const state = run([take('c1'), take('c2')]);
    expect(Object.keys(state.active)).toEqual(['c1', 'c2']);
    let error: DomainError | undefined;
    try {
      callLinesDecider.decide(take('c3'), state);
    } catch (e) {
      error = e as DomainError;
    }
    expect(error).toMatchObject({ code: 'CONCURRENT_CALL_LIMIT', status: 429, headers: { 'retry-after': '5' } });
  });

  it('a released line can be taken again', () => {
    const state = run([take('c1'), take('c2'), release('c1'), take('c3')]);
    expect(Object.keys(state.active).sort()).toEqual(['c2', 'c3']);
  });

  it('taking a line a call already holds, or releasing one it does not, decides nothing', () => {
    const state = run([take('c1', 1)]);
    expect(callLinesDecider.decide(take('c1', 1), state)).toEqual([]);
    expect(callLinesDecider.decide(release('nope'), state)).toEqual([]);
    expect(callLinesDecider.decide(release('c1'), run([release('c1')], state))).toEqual([]);
  });

  it('an operator limit replaces the default, lower or higher, and is kept in the log', () => {
    const set = (n: number): CallLineCommand => ({ type: 'SetLimit', accountId: 'a', concurrentCalls: n, now: NOW });
    const lowered = run([take('c1', 5), set(1)]);
    expect(lowered.limit).toBe(1);
    expect(() => callLinesDecider.decide(take('c2', 5), lowered)).toThrow(DomainError);
    const raised = run([set(3)], lowered);
    expect(Object.keys(run([take('c2', 1), take('c3', 1)], raised).active)).toEqual(['c1', 'c2', 'c3']);
    expect(callLinesDecider.decide(set(3), raised)).toEqual([]);
  });
});
