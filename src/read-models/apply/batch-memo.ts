import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { Awaitable, Rows } from './rows';

/**
 * What a projection batch remembers between its events: values its handlers fold (loaded once a
 * batch), and upserts deferred to the batch's end (written once per key, the last build wins).
 * It never outlives the transaction whose writes it mirrors: cleared when a batch begins, ends or
 * fails. Shared by the SQLite and PostgreSQL row writers.
 */
class BatchMemo {
  private readonly memo = new Map<string, unknown>();
  private readonly deferred = new Map<string, { entity: EntityTarget<ObjectLiteral>; build: () => ObjectLiteral }>();

  /** A load that answers a promise is remembered as that promise: later callers await the same load. */
  remembered<V>(key: string, load: () => Awaitable<V>): Awaitable<V> {
    if (this.memo.has(key)) return this.memo.get(key) as Awaitable<V>;
    const value = load();
    this.memo.set(key, value);
    return value;
  }

  remember(key: string, value: unknown): void {
    this.memo.set(key, value);
  }

  defer<T extends ObjectLiteral>(entity: EntityTarget<T>, key: string, build: () => Partial<T>): void {
    this.deferred.set(key, { entity, build });
  }

  /** The deferred upserts, in the order their keys were first deferred; then forgets everything. */
  drain(): Array<{ entity: EntityTarget<ObjectLiteral>; row: ObjectLiteral }> {
    const out = [...this.deferred.values()].map(({ entity, build }) => ({ entity, row: build() }));
    this.clear();
    return out;
  }

  clear(): void {
    this.memo.clear();
    this.deferred.clear();
  }
}

/**
 * The part of a row writer that is the same on both databases: what the batch remembers and
 * defers. The writers add the statements.
 */
export abstract class BatchedRows implements Rows {
  protected readonly batch = new BatchMemo();

  abstract insert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): Awaitable<void>;
  abstract upsert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): Awaitable<void>;
  abstract update<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Partial<T>,
    set: Partial<T>,
  ): Awaitable<number>;
  abstract increment<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Partial<T>,
    property: keyof T & string,
    by: number,
  ): Awaitable<number>;
  abstract delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): Awaitable<number>;
  abstract findOne<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): Awaitable<T | undefined>;

  remembered<V>(key: string, load: () => Awaitable<V>): Awaitable<V> {
    return this.batch.remembered(key, load);
  }

  remember(key: string, value: unknown): void {
    this.batch.remember(key, value);
  }

  upsertAtBatchEnd<T extends ObjectLiteral>(entity: EntityTarget<T>, key: string, build: () => Partial<T>): void {
    this.batch.defer(entity, key, build);
  }
}
