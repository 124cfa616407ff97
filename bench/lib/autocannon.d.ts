// autocannon ships no types: the part of its API the bench's load processes use.
declare module 'autocannon' {
  interface Result {
    duration: number;
    latency: { p50: number; p99: number };
    requests: { total: number };
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  interface Instance {
    on(event: 'response', listener: () => void): void;
  }
  function autocannon(options: Record<string, unknown>, done: (error: Error | null, result: Result) => void): Instance;
  export = autocannon;
}
