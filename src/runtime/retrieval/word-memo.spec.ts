import { WordMemo } from './word-memo';

describe('WordMemo', () => {
  it('works a word out once while it is remembered, null and undefined included', () => {
    const memo = new WordMemo<string | null | undefined>(10);
    let made = 0;
    const make = (value: string | null | undefined) => () => {
      made++;
      return value;
    };
    expect(memo.get('card', make('CARD'))).toBe('CARD');
    expect(memo.get('card', make('other'))).toBe('CARD');
    expect(memo.get('nothing', make(null))).toBeNull();
    expect(memo.get('nothing', make('other'))).toBeNull();
    expect(memo.get('unset', make(undefined))).toBeUndefined();
    expect(memo.get('unset', make('other'))).toBeUndefined();
    expect(made).toBe(3);
  });

  it('keeps at most two generations, and a word in use outlives a burst of new ones', () => {
    const memo = new WordMemo<number>(100);
    let made = 0;
    const make = () => ++made;
    const hot = memo.get('refund', make);
    for (let i = 0; i < 10_000; i++) {
      memo.get(`random${i}`, make);
      expect(memo.size).toBeLessThanOrEqual(200);
      // asked for every 50 new words: it moves to the current generation each time
      if (i % 50 === 0) expect(memo.get('refund', make)).toBe(hot);
    }
    expect(memo.get('refund', make)).toBe(hot);
    // a word not asked for over two generations is worked out again
    const before = made;
    memo.get('random0', make);
    expect(made).toBe(before + 1);
  });
});
