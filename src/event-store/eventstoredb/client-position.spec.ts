import { START, comparePositions, isPosition, positionOf } from '../position';
import {
  compareClientPositions,
  isKnownPosition,
  toClientPosition,
  toPortPosition,
  toReadPosition,
} from './client-position';

describe('$all positions <-> the port position', () => {
  it('encodes commit and prepare as 16 hex digits each', () => {
    const position = toPortPosition({ commit: 0x1234n, prepare: 0x1200n });
    expect(position).toBe('0000000000001234:0000000000001200');
    expect(isPosition(position)).toBe(true);
  });

  it('round-trips, up to u64 values', () => {
    for (const p of [
      { commit: 0n, prepare: 0n },
      { commit: 1n, prepare: 1n },
      { commit: 987_654_321n, prepare: 987_654_000n },
      { commit: 2n ** 64n - 2n, prepare: 2n ** 63n },
    ]) {
      expect(toClientPosition(toPortPosition(p))).toEqual(p);
    }
  });

  it('orders as the server orders $all: commit first, then prepare', () => {
    const positions = [
      { commit: 500n, prepare: 500n },
      // events of one multi-event append share the commit and differ in prepare
      { commit: 1_000n, prepare: 1_000n },
      { commit: 1_000n, prepare: 1_180n },
      { commit: 1_000n, prepare: 1_360n },
      { commit: 0x1_0000n, prepare: 0x1_0000n },
      { commit: 2n ** 40n, prepare: 2n ** 40n },
    ];
    for (let i = 0; i < positions.length; i++) {
      for (let j = 0; j < positions.length; j++) {
        const expected = Math.sign(i - j);
        expect(compareClientPositions(positions[i], positions[j])).toBe(expected);
        // The port's text order agrees with the server's order, with no knowledge of the store.
        expect(comparePositions(toPortPosition(positions[i]), toPortPosition(positions[j]))).toBe(expected);
      }
    }
  });

  it('reads and subscribes from the client START for the port START, else from the pair', () => {
    expect(toReadPosition(START)).toBe('start');
    expect(toReadPosition(positionOf(10n, 8n))).toEqual({ commit: 10n, prepare: 8n });
  });

  it('knows a missing or "unknown" (u64::MAX) position from old servers for what it is', () => {
    expect(isKnownPosition(undefined)).toBe(false);
    expect(isKnownPosition({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n })).toBe(false);
    expect(isKnownPosition({ commit: -1n, prepare: -1n })).toBe(false);
    expect(isKnownPosition({ commit: 0n, prepare: 0n })).toBe(true);
    expect(isKnownPosition({ commit: 42n, prepare: 40n })).toBe(true);
  });
});
