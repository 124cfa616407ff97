import { loopTurns } from './loop-turns';

/** Counts the loop's turns: a setImmediate chain runs once per turn. */
function turnCounter(): { seen: () => number; stop: () => void } {
  let turnsSeen = 0;
  let ticking = true;
  const tick = () => {
    turnsSeen++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return { seen: () => turnsSeen, stop: () => (ticking = false) };
}

describe('loopTurns', () => {
  it('resolves each call on a turn of the event loop of its own, in call order', async () => {
    const turns = turnCounter();
    const turn = loopTurns();
    const at: number[] = [];
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        await turn();
        order.push(i);
        at.push(turns.seen());
      }),
    );
    turns.stop();
    expect(order).toEqual([0, 1, 2, 3, 4]);
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThan(at[i - 1]);
  });

  it('lets a call made after the others were served resolve on the next turn', async () => {
    const turn = loopTurns();
    await turn();
    let ran = false;
    setImmediate(() => (ran = true));
    await turn();
    expect(ran).toBe(true);
  });

  it('seats perTurn callers on one turn, and the next group on a later turn', async () => {
    const turns = turnCounter();
    const turn = loopTurns(4);
    const at: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await turn();
        at[i] = turns.seen();
      }),
    );
    turns.stop();
    const groups = [at.slice(0, 4), at.slice(4, 8), at.slice(8)];
    for (const group of groups) expect(new Set(group).size).toBe(1);
    expect(groups[1][0]).toBeGreaterThan(groups[0][0]);
    expect(groups[2][0]).toBeGreaterThan(groups[1][0]);
  });

  it('gives a late caller a turn of its own even when its group had seats left', async () => {
    const turn = loopTurns(4);
    await turn();
    let ran = false;
    setImmediate(() => (ran = true));
    await turn();
    expect(ran).toBe(true);
  });
});
