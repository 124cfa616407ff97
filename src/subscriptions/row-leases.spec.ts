import { RowLeases } from './row-leases';

/** Waits for a condition, bounded: never a fixed sleep. */
async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('RowLeases', () => {
  let now = 0;
  beforeEach(() => (now = 1_000_000));

  it('renews every held row together while any is held, and stops when none is', async () => {
    const renewals: string[][] = [];
    const leases = new RowLeases({
      renew: async (ids) => void renewals.push([...ids].sort()),
      onError: fail,
      now: () => now,
      maxHoldMs: 60_000,
      everyMs: 5,
    });
    leases.hold(['a', 'b']);
    await until(() => renewals.length >= 2, 'two renewals');
    expect(renewals[0]).toEqual(['a', 'b']);
    leases.release('a');
    const after = renewals.length;
    await until(() => renewals.length > after + 1, 'renewals of b alone');
    expect(renewals.at(-1)).toEqual(['b']);
    leases.release('b');
    expect(leases.size).toBe(0);
    const stopped = renewals.length;
    // a held row starts it again: the ticker is gone until then
    leases.hold(['c']);
    await until(() => renewals.some((r) => r[0] === 'c'), 'c renewed');
    expect(renewals.slice(stopped).every((r) => r.length === 1 && r[0] === 'c')).toBe(true);
    leases.stop();
  });

  it('reports a renewal that fails and tries again on the next tick, never two at once', async () => {
    const errors: unknown[] = [];
    let running = 0;
    let most = 0;
    let calls = 0;
    const leases = new RowLeases({
      renew: async () => {
        calls++;
        running++;
        most = Math.max(most, running);
        // slower than the tick: a second renewal must not start meanwhile
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        if (calls === 1) throw new Error('the database did not answer');
      },
      onError: (error) => errors.push(error),
      now: () => now,
      maxHoldMs: 60_000,
      everyMs: 2,
    });
    leases.hold(['a']);
    await until(() => calls >= 3, 'three renewals');
    leases.stop();
    expect(errors).toHaveLength(1);
    expect(most).toBe(1);
  });

  it("stops renewing a row held past the longest hold: hung work lapses as a dead process's does", async () => {
    const renewals: string[][] = [];
    const leases = new RowLeases({
      renew: async (ids) => void renewals.push([...ids].sort()),
      onError: fail,
      now: () => now,
      maxHoldMs: 60_000,
      everyMs: 2,
    });
    leases.hold(['old']);
    now += 30_000;
    leases.hold(['new']);
    await until(() => renewals.length > 0, 'a renewal');
    expect(renewals.at(-1)).toEqual(['new', 'old']);
    now += 31_000; // old: 61 s, new: 31 s
    const before = renewals.length;
    await until(() => renewals.length > before + 1, 'renewals after the cap');
    expect(renewals.at(-1)).toEqual(['new']);
    leases.stop();
  });
});

function fail(error: unknown): never {
  throw error;
}
