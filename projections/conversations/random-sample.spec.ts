import { drawSample, type SampleRow, type SampleSource } from './random-sample';

interface Match {
  id: string;
  startedAt: string;
}

/** The matches of a listing held in memory, answering as the repositories' queries do. */
function inMemory(matches: Match[]): SampleSource & { calls: string[] } {
  const sorted = [...matches].sort((a, b) =>
    a.startedAt === b.startedAt ? a.id.localeCompare(b.id) : a.startedAt.localeCompare(b.startedAt),
  );
  const row = (m: Match): SampleRow => ({ id: m.id, summary: JSON.stringify({ id: m.id, startedAt: m.startedAt }) });
  const calls: string[] = [];
  return {
    calls,
    count: async (cap) => (calls.push('count'), Math.min(cap, sorted.length)),
    shuffled: async (limit) => (
      calls.push('shuffled'),
      [...sorted]
        .sort(() => Math.random() - 0.5)
        .slice(0, limit)
        .map(row)
    ),
    bounds: async () => (
      calls.push('bounds'),
      sorted.length === 0 ? null : { first: sorted[0].startedAt, last: sorted[sorted.length - 1].startedAt }
    ),
    firstAtOrAfter: async (instants) => (
      calls.push('probe'),
      instants.map((at) => sorted.find((m) => m.startedAt >= at) ?? null).map((m) => (m ? row(m) : null))
    ),
    walk: async (from, count) => (
      calls.push('walk'),
      sorted
        .filter((m) => from === null || m.startedAt >= from)
        .slice(0, count)
        .map(row)
    ),
  };
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();
const evenly = (n: number): Match[] =>
  Array.from({ length: n }, (_, i) => ({ id: `C${String(i).padStart(4, '0')}`, startedAt: at(i) }));
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

/** `times` draws of `limit`, each of `limit` distinct conversations: every id seen. */
async function draws(source: SampleSource, times: number, limit: number, smallSet: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < times; i++) {
    const rows = await drawSample(source, limit, smallSet);
    expect(rows).toHaveLength(limit);
    expect(new Set(ids(rows)).size).toBe(limit);
    ids(rows).forEach((id) => seen.add(id));
  }
  return seen;
}

describe('drawSample', () => {
  it('draws exactly, in a random order, up to the small-set bound', async () => {
    const source = inMemory(evenly(50));
    const seen = await draws(source, 20, 5, 100);
    expect(seen.size).toBeGreaterThan(25);
    expect(source.calls).not.toContain('probe');
    expect(ids(await drawSample(source, 500, 100)).sort()).toEqual(ids(evenly(50)));
  });

  it('past the bound, probes instants between the first and the last match', async () => {
    const source = inMemory(evenly(1000));
    const seen = await draws(source, 10, 20, 100);
    expect(source.calls).toContain('probe');
    expect(source.calls).not.toContain('shuffled');
    // spread over the range, not the same few
    expect(seen.size).toBeGreaterThan(150);
    expect([...seen].some((id) => id < 'C0100')).toBe(true);
    expect([...seen].some((id) => id > 'C0900')).toBe(true);
  });

  it('holds min(limit, matches) even when the probes keep landing on the same few', async () => {
    // 300 conversations in one instant and one an hour later: time probes reach only two of them
    const crowded: Match[] = [
      ...Array.from({ length: 300 }, (_, i) => ({ id: `T${String(i).padStart(3, '0')}`, startedAt: at(0) })),
      { id: 'LATE', startedAt: at(3600) },
    ];
    const source = inMemory(crowded);
    for (const limit of [1, 2, 50, 301, 400]) {
      const rows = await drawSample(source, limit, 0);
      expect(rows).toHaveLength(Math.min(limit, crowded.length));
      expect(new Set(ids(rows)).size).toBe(rows.length);
    }
    expect(source.calls).toContain('walk');
  });

  it('fills from the first match when the walk after a random instant runs out', async () => {
    const source = inMemory(evenly(10));
    // every instant is the last match's: the probes and the walk after it find C0009 alone
    const rows = await drawSample(source, 4, 0, () => 0.999999);
    expect(ids(rows)).toEqual(['C0009', 'C0000', 'C0001', 'C0002']);
  });

  it('draws nothing from no matches, and nothing for a limit of 0', async () => {
    expect(await drawSample(inMemory([]), 5, 100)).toEqual([]);
    expect(await drawSample(inMemory([]), 5, -1)).toEqual([]);
    expect(await drawSample(inMemory(evenly(3)), 0, 100)).toEqual([]);
  });
});
