import { AggregateCache } from './aggregate-cache';

describe('AggregateCache', () => {
  it('keeps the newer state when a reader stores one it folded before a command appended', () => {
    const cache = new AggregateCache(10);
    cache.set('s', 5n, 'after the append');
    cache.set('s', 4n, 'read before it');
    expect(cache.get('s')).toEqual({ revision: 5n, state: 'after the append' });
    cache.set('s', 6n, 'later');
    expect(cache.get('s')).toEqual({ revision: 6n, state: 'later' });
  });

  it('forgets the least recently used stream past its capacity', () => {
    const cache = new AggregateCache(2);
    cache.set('a', 0n, 1);
    cache.set('b', 0n, 2);
    cache.get('a');
    cache.set('c', 0n, 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((e) => e?.state)).toEqual([1, undefined, 3]);
  });
});
