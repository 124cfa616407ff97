import { loopTurns } from './loop-turns';

describe('loopTurns', () => {
  it('resolves each call on a turn of the event loop of its own, in call order', async () => {
    // counts the loop's turns: a setImmediate chain runs once per turn
    let turnsSeen = 0;
    let ticking = true;
    const tick = () => {
      turnsSeen++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turn = loopTurns();
    const at: number[] = [];
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        await turn();
        order.push(i);
        at.push(turnsSeen);
      }),
    );
    ticking = false;
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
});
