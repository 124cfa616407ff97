/**
 * A position in the whole log. Opaque to the code above the port and totally ordered.
 *
 * EventStoreDB names a place in `$all` with a (commit, prepare) pair; SQLite with one
 * global_position, which maps to commit = prepare. Both fit one fixed-width string whose
 * lexicographic order is the log order, so checkpoints can be stored and compared as text
 * in any database without knowing which store wrote them.
 */
export type Position = string & { readonly __position: unique symbol };

const WIDTH = 16;

export function positionOf(commit: bigint, prepare: bigint = commit): Position {
  if (commit < 0n || prepare < 0n) throw new RangeError('a log position is never negative');
  return `${commit.toString(16).padStart(WIDTH, '0')}:${prepare.toString(16).padStart(WIDTH, '0')}` as Position;
}

/** The position before every event: reading or subscribing "from start" starts after it. */
export const START: Position = positionOf(0n, 0n);

const SHAPE = /^[0-9a-f]{16}:[0-9a-f]{16}$/;

export function isPosition(value: unknown): value is Position {
  return typeof value === 'string' && SHAPE.test(value);
}

export function parsePosition(value: string): Position {
  if (!isPosition(value)) throw new RangeError(`not a log position: ${JSON.stringify(value)}`);
  return value;
}

export function commitOf(position: Position): bigint {
  return BigInt(`0x${position.slice(0, WIDTH)}`);
}

export function prepareOf(position: Position): bigint {
  return BigInt(`0x${position.slice(WIDTH + 1)}`);
}

export function comparePositions(a: Position, b: Position): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}
