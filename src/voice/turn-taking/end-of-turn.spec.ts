import { completenessOf, endOfTurnWait } from './end-of-turn';

const BOUNDS = { minMs: 300, maxMs: 1500 };

describe('end of turn', () => {
  it.each([
    ['What are your opening hours?', 'complete'],
    ['I want to book a table.', 'complete'],
    ['what are your opening hours', 'complete'], // one of the phrases, whole: the grammar's end state
    ["I'd like to", 'incomplete'],
    ['i would like to um', 'incomplete'],
    ['can I book a table for', 'incomplete'],
    ['and', 'incomplete'],
    ['book a table', 'unknown'],
    ['', 'unknown'],
  ])('%p is %s', (text, expected) => {
    expect(completenessOf(text, ['What are your opening hours?'])).toBe(expected);
  });

  it('waits the minimum after a complete request, the maximum mid-phrase, else the default within the bounds', () => {
    expect(endOfTurnWait('Where is your office?', BOUNDS, 600)).toBe(300);
    expect(endOfTurnWait("I'd like to… um", BOUNDS, 600)).toBe(1500);
    expect(endOfTurnWait('book a table', BOUNDS, 600)).toBe(600);
    expect(endOfTurnWait('book a table', { minMs: 700, maxMs: 900 }, 600)).toBe(700);
  });
});
