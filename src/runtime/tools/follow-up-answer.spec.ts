import { FollowUpAnswer } from './follow-up-answer';

describe('FollowUpAnswer', () => {
  const run = (before: string, pieces: string[]) => {
    const written: string[] = [];
    const answer = new FollowUpAnswer(before, (piece) => written.push(piece));
    pieces.forEach((piece) => answer.push(piece));
    return { written, text: answer.text(pieces.join('')) };
  };

  it('streams the final answer as it comes when the model said nothing before its tool calls', () => {
    expect(run('', ['Your order ', 'ships.'])).toEqual({
      written: ['Your order ', 'ships.'],
      text: 'Your order ships.',
    });
  });

  it('joins what was said before with a space, sent with the first piece, so the pieces make the answer', () => {
    const { written, text } = run('Let me check.', ['', 'It ', 'ships.']);
    expect(written).toEqual([' It ', 'ships.']);
    expect(text).toBe('Let me check. It ships.');
    expect(`Let me check.${written.join('')}`).toBe(text);
  });

  it('adds no space where either side has one', () => {
    expect(run('Let me check. ', ['It ships.']).text).toBe('Let me check. It ships.');
    expect(run('Let me check.', ['\nIt ships.']).written).toEqual(['\nIt ships.']);
  });
});
