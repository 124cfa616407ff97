/**
 * What retrieval worked out for a word (an index's fuzzy neighbours, the thesaurus' related stems),
 * remembered for the words met recently: two generations of at most `perGeneration` words each. A
 * word asked for again moves to the current one, so the words customers keep using stay while a
 * burst of new ones (a hostile tenant's random text) can push out at most a generation. A process
 * keeps many indexes (one per deployment in use), so theirs are small: the commonest words of a
 * language are most of what anyone writes.
 */
export class WordMemo<T> {
  private current = new Map<string, T>();
  private previous = new Map<string, T>();

  constructor(private readonly perGeneration: number) {}

  /** Words remembered now (at most twice `perGeneration`). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** What `word` gave before, or `make()` now (remembered). */
  get(word: string, make: () => T): T {
    const had = this.current.get(word);
    if (had !== undefined || this.current.has(word)) return had as T;
    const value = this.previous.has(word) ? (this.previous.get(word) as T) : make();
    if (this.current.size >= this.perGeneration) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(word, value);
    return value;
  }
}
