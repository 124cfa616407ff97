import type { Position as ClientPosition, ReadPosition } from '@kurrent/kurrentdb-client';
import { START, commitOf, positionOf, prepareOf, type Position } from '../position';

/**
 * `$all` names a place with (commit, prepare). position.ts encodes both halves as fixed-width hex,
 * so the text order of the port's position is the (commit, prepare) order the server reads in.
 */
export function toPortPosition(position: ClientPosition): Position {
  return positionOf(position.commit, position.prepare);
}

export function toClientPosition(position: Position): ClientPosition {
  return { commit: commitOf(position), prepare: prepareOf(position) };
}

/** Where a read or subscription starts: the client's own START for the port's START. */
export function toReadPosition(position: Position): ReadPosition {
  return position === START ? 'start' : toClientPosition(position);
}

/** Servers before 22.6 answer stream reads with no position, or with u64::MAX ("unknown") in both halves. */
const UNKNOWN = 2n ** 64n - 1n;

export function isKnownPosition(position: ClientPosition | undefined): position is ClientPosition {
  return (
    position !== undefined &&
    position.commit !== UNKNOWN &&
    position.prepare !== UNKNOWN &&
    position.commit >= 0n &&
    position.prepare >= 0n
  );
}

/** (commit, prepare) order, the server's `$all` order; the port's positions compare the same way as text. */
export function compareClientPositions(a: ClientPosition, b: ClientPosition): -1 | 0 | 1 {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}
