import { redact } from './redact';
import type { RedactKind } from './redact-kinds';

type Container = Record<string, unknown> | unknown[];

/**
 * A JSON-like value (state, metadata) with every string in it redacted, at any depth: object keys,
 * numbers, booleans and null are left as they are. A new value; the one given is not changed.
 *
 * It walks with a stack of its own rather than recursion, so no nesting, however deep, overflows
 * the call stack, and it never throws: a key named `__proto__` is copied as a plain property (an
 * assignment would set the copy's prototype), and a value seen before (only a caller's object can
 * be shared or cyclic; parsed JSON never is) is given the copy made of it, so the walk ends.
 */
export function redactValue<T>(value: T, kinds: readonly RedactKind[]): T {
  if (kinds.length === 0) return value;
  if (typeof value === 'string') return redact(value, kinds) as T;
  if (value === null || typeof value !== 'object') return value;
  const copies = new Map<object, Container>();
  const stack: Array<[Container, Container]> = [];
  const copyOf = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, kinds);
    if (v === null || typeof v !== 'object') return v;
    const seen = copies.get(v);
    if (seen) return seen;
    const copy: Container = Array.isArray(v) ? new Array<unknown>(v.length) : {};
    copies.set(v, copy);
    stack.push([v as Container, copy]);
    return copy;
  };
  const root = copyOf(value);
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (to as unknown[])[i] = copyOf(from[i]);
      continue;
    }
    for (const key of Object.keys(from)) {
      const copied = copyOf(from[key]);
      if (key === '__proto__')
        Object.defineProperty(to, key, { value: copied, enumerable: true, writable: true, configurable: true });
      else (to as Record<string, unknown>)[key] = copied;
    }
  }
  return root as T;
}
