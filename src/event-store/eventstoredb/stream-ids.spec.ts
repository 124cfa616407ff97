import { StreamIdIndex, type ReadIdsFrom } from './stream-ids';

/** A stream of ids `e0, e1, ...`; counts the reads and where they started. */
function server(streams: Record<string, string[]>) {
  const reads: Array<{ stream: string; from: bigint }> = [];
  const read: ReadIdsFrom = async (stream, from) => {
    reads.push({ stream, from });
    return (streams[stream] ?? []).slice(Number(from)).map((id, i) => ({ id, revision: from + BigInt(i) }));
  };
  return { reads, read };
}

describe('StreamIdIndex', () => {
  it('reads a stream in full the first time, then only what came after', async () => {
    const streams = { s: ['a', 'b'] };
    const { reads, read } = server(streams);
    const index = new StreamIdIndex(read);
    const first = await index.refresh('s');
    expect(first.through).toBe(1n);
    expect([...first.ids]).toEqual([
      ['a', 0n],
      ['b', 1n],
    ]);
    streams.s.push('c');
    const second = await index.refresh('s');
    expect(second.through).toBe(2n);
    expect(second.ids.get('c')).toBe(2n);
    expect(reads).toEqual([
      { stream: 's', from: 0n },
      { stream: 's', from: 2n },
    ]);
  });

  it('knows a missing stream as through null', async () => {
    const index = new StreamIdIndex(server({}).read);
    expect((await index.refresh('none')).through).toBeNull();
    expect(index.peek('none')?.ids.size).toBe(0);
    expect(index.peek('never-read')).toBeUndefined();
  });

  it('records its own appends, moving through only over a range without gaps', async () => {
    const index = new StreamIdIndex(server({ s: ['a'] }).read);
    await index.refresh('s');
    index.recordAppend('s', ['b', 'c'], 2n);
    expect(index.peek('s')?.through).toBe(2n);
    // An append whose start this process never saw (another writer went between): ids kept, through not moved.
    index.recordAppend('s', ['f'], 5n);
    expect(index.peek('s')?.through).toBe(2n);
    expect(index.peek('s')?.ids.get('f')).toBe(5n);
  });

  it('learns a whole stream read from its start', () => {
    const index = new StreamIdIndex(server({}).read);
    index.learn('s', 0n, [
      { id: 'a', revision: 0n },
      { id: 'b', revision: 1n },
    ]);
    expect(index.peek('s')?.through).toBe(1n);
    // A stale read (shorter than what is known) never moves through back.
    index.learn('s', 0n, [{ id: 'a', revision: 0n }]);
    expect(index.peek('s')?.through).toBe(1n);
  });

  it('forgets the least recently used streams past its bound, never the one in use', async () => {
    const { read } = server({ s1: ['a', 'b'], s2: ['c', 'd'], s3: ['e', 'f'] });
    const index = new StreamIdIndex(read, 4);
    await index.refresh('s1');
    await index.refresh('s2');
    index.peek('s1'); // s1 used more recently than s2
    await index.refresh('s3');
    expect(index.peek('s2')).toBeUndefined();
    expect(index.peek('s1')).toBeDefined();
    expect(index.peek('s3')).toBeDefined();
    expect(index.trackedIds).toBe(4);
    const big = new StreamIdIndex(server({}).read, 1);
    big.learn('only', 0n, [
      { id: 'a', revision: 0n },
      { id: 'b', revision: 1n },
    ]);
    expect(big.peek('only')?.ids.size).toBe(2);
  });
});
