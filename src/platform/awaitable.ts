/** A value now (SQLite's synchronous driver) or later (PostgreSQL's). */
export type Awaitable<T> = T | Promise<T>;

/**
 * `fn` applied to `value`: at once when the value is already there, after it otherwise. Keeps a
 * path that answers synchronously on SQLite synchronous (no promise, no microtask), while the same
 * code awaits on PostgreSQL.
 */
export function andThen<T, U>(value: Awaitable<T>, fn: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/** Every value of `values`: at once when all are there, after the last otherwise. */
export function allOf<T extends readonly unknown[]>(values: { [K in keyof T]: Awaitable<T[K]> }): Awaitable<T> {
  return values.some((value) => value instanceof Promise)
    ? (Promise.all(values) as Promise<T>)
    : (values as unknown as T);
}
