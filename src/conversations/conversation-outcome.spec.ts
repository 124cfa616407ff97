import { isUserTurn, outcomeOf } from './conversation.events';

describe('a conversation outcome (contract §23, §24)', () => {
  it('names a call nobody answered not_connected, whatever else it holds', () => {
    expect(outcomeOf({ reason: 'not_connected', handedOff: false, userTurns: 0 })).toBe('not_connected');
  });

  it('names a handoff by its event or its end reason, before containment', () => {
    expect(outcomeOf({ reason: 'user', handedOff: true, userTurns: 3 })).toBe('handoff');
    expect(outcomeOf({ reason: 'handoff', handedOff: false, userTurns: 1 })).toBe('handoff');
  });

  it('is contained with one user turn answered, abandoned with none', () => {
    expect(outcomeOf({ reason: 'user', handedOff: false, userTurns: 1 })).toBe('contained');
    expect(outcomeOf({ reason: 'timeout', handedOff: false, userTurns: 0 })).toBe('abandoned');
    expect(outcomeOf({ reason: 'agent', handedOff: false, userTurns: 0 })).toBe('abandoned');
  });

  it('counts typed, spoken and keyed input as the user turn, not greetings or silences', () => {
    expect(isUserTurn({ userInput: 'hi', isSilence: false })).toBe(true);
    expect(isUserTurn({ userInput: '', isSilence: false, dtmf: '12' })).toBe(true);
    expect(isUserTurn({ userInput: '', isSilence: false })).toBe(false);
    expect(isUserTurn({ userInput: '  ', isSilence: true })).toBe(false);
  });
});
