import { judgeAppend } from './retry-check';

const stored = new Map<string, bigint>([
  ['a', 0n],
  ['b', 1n],
  ['c', 2n],
  ['d', 3n],
]);

describe('judgeAppend', () => {
  it('fresh when none of the ids is stored', () => {
    expect(judgeAppend(['x', 'y'], stored)).toEqual({ kind: 'fresh' });
    expect(judgeAppend(['x'], new Map())).toEqual({ kind: 'fresh' });
  });

  it('a retry when every id is stored consecutively in this order: answers the last revision', () => {
    expect(judgeAppend(['b', 'c'], stored)).toEqual({ kind: 'retry', lastRevision: 2n });
    expect(judgeAppend(['a'], stored)).toEqual({ kind: 'retry', lastRevision: 0n });
    expect(judgeAppend(['a', 'b', 'c', 'd'], stored)).toEqual({ kind: 'retry', lastRevision: 3n });
  });

  it('reused when stored ids come first and new ones follow, naming a stored id', () => {
    expect(judgeAppend(['a', 'b', 'x'], stored)).toEqual({ kind: 'reused', eventId: 'a' });
  });

  it('reused when new ids come first and stored ones follow, naming the stored id', () => {
    expect(judgeAppend(['x', 'a'], stored)).toEqual({ kind: 'reused', eventId: 'a' });
  });

  it('reused when the stored ids are not one append (gap or other order)', () => {
    expect(judgeAppend(['a', 'c'], stored)).toEqual({ kind: 'reused', eventId: 'c' });
    expect(judgeAppend(['b', 'a'], stored)).toEqual({ kind: 'reused', eventId: 'a' });
  });

  it('reused when an id appears twice in one append', () => {
    expect(judgeAppend(['x', 'x'], stored)).toEqual({ kind: 'reused', eventId: 'x' });
  });
});
