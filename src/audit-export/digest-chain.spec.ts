import { chainLine, GENESIS, verifyChain } from './digest-chain';

function file(bodies: unknown[]): string[] {
  let previous = GENESIS;
  return bodies.map((b) => {
    const { line, digest } = chainLine(previous, JSON.stringify(b));
    previous = digest;
    return line;
  });
}

const GOOD = file([
  { header: { project: 'p' } },
  { position: 'a', type: 'X' },
  { position: 'b', type: 'Y' },
  { end: true, count: 2 },
]);

describe('digest chain', () => {
  it('a file as written verifies', async () => {
    expect(await verifyChain(GOOD)).toEqual({ ok: true, lines: 4, events: 2 });
  });

  it('a changed, dropped, swapped or added line fails at that line', async () => {
    const changed = [...GOOD];
    changed[1] = changed[1].replace('"X"', '"Z"');
    expect(await verifyChain(changed)).toMatchObject({ ok: false, line: 2 });
    expect(await verifyChain([GOOD[0], GOOD[2], GOOD[3]])).toMatchObject({ ok: false, line: 2 });
    expect(await verifyChain([GOOD[0], GOOD[2], GOOD[1], GOOD[3]])).toMatchObject({ ok: false, line: 2 });
    expect(await verifyChain([...GOOD, GOOD[3]])).toMatchObject({ ok: false, line: 5 });
  });

  it('a file without its closing line, or whose count is off, fails', async () => {
    expect(await verifyChain(GOOD.slice(0, 3))).toMatchObject({ ok: false, reason: expect.stringMatching(/cut off/) });
    const miscounted = file([{ header: {} }, { position: 'a' }, { end: true, count: 5 }]);
    expect(await verifyChain(miscounted)).toMatchObject({ ok: false, reason: expect.stringMatching(/counts 5/) });
  });
});
