import type { NewEvent } from '../event-store.port';
import type { AppendOutcome, AppendRequest } from './batch-writer';
import { WrongExpectedRevisionError } from '../errors';
import { GroupCommitter } from './group-commit';
import type { EventRow } from './rows';
import { AdaptiveWriter, INLINE_MAX_APPENDS, type Writer } from './writers';

/** A writer whose batches settle when the test says, in order, like the writer thread's. */
class GatedWriter implements Writer {
  readonly batches: AppendRequest[][] = [];
  private readonly pending: Array<() => void> = [];
  private position = 0;

  write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    this.batches.push(batch);
    return new Promise((resolve) => {
      this.pending.push(() =>
        resolve(
          batch.map((request) => ({
            ok: true,
            revision: request.events.length - 1,
            globalPosition: (this.position += request.events.length),
            repeat: false,
          })),
        ),
      );
    });
  }

  get inFlight(): number {
    return this.pending.length;
  }

  settleOldest(): void {
    this.pending.shift()!();
  }

  async close(): Promise<void> {}
}

const event = (n: number): NewEvent => ({
  id: `e${n}`,
  type: 'T',
  data: { n },
  metadata: {
    schemaVersion: 1,
    actor: 't',
    correlationId: 'c',
    causationId: null,
    occurredAt: '2026-01-01T00:00:00.000Z',
  },
});
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommitter', () => {
  it('with two in flight, the next batch goes to the writer while the last one is unsettled; never a third', async () => {
    const writer = new GatedWriter();
    const committer = new GroupCommitter(writer, () => undefined, 2);
    const first = committer.enqueue('s1', [event(1)], 'any');
    await turn();
    const second = [committer.enqueue('s2', [event(2)], 'any'), committer.enqueue('s3', [event(3)], 'any')];
    await turn();
    expect(writer.inFlight).toBe(2);
    expect(writer.batches.map((b) => b.map((r) => r.streamId))).toEqual([['s1'], ['s2', 's3']]);
    const third = committer.enqueue('s4', [event(4)], 'any');
    await turn();
    expect(writer.inFlight).toBe(2); // s4 waits for a place
    writer.settleOldest();
    await expect(first).resolves.toMatchObject({ position: expect.any(String) });
    await turn();
    expect(writer.batches.map((b) => b.map((r) => r.streamId))).toEqual([['s1'], ['s2', 's3'], ['s4']]);
    writer.settleOldest();
    writer.settleOldest();
    await Promise.all([...second, third]);
  });

  it('with one in flight (the inline writer), appends wait for the batch before them', async () => {
    const writer = new GatedWriter();
    const committer = new GroupCommitter(writer, () => undefined, 1);
    void committer.enqueue('s1', [event(1)], 'any');
    await turn();
    void committer.enqueue('s2', [event(2)], 'any');
    await turn();
    expect(writer.inFlight).toBe(1);
    writer.settleOldest();
    await turn();
    await turn();
    expect(writer.batches).toHaveLength(2);
    writer.settleOldest();
  });

  it('drain writes what is queued and waits for every batch in flight', async () => {
    const writer = new GatedWriter();
    const committer = new GroupCommitter(writer, () => undefined, 2);
    const appends = [1, 2, 3].map((n) => committer.enqueue(`s${n}`, [event(n)], 'any'));
    let drained = false;
    const draining = committer.drain().then(() => (drained = true));
    await turn();
    expect(writer.inFlight).toBe(1);
    expect(drained).toBe(false);
    writer.settleOldest();
    await Promise.all(appends);
    await draining;
    expect(drained).toBe(true);
    expect(committer.stats).toMatchObject({ commits: 1, appends: 3, events: 3 });
  });
});

describe('GroupCommitter: the rows a commit stored', () => {
  /** Answers the batch as the test scripts it, instead of numbering it. */
  const scripted = (outcomes: AppendOutcome[]): Writer => ({
    write: async () => outcomes,
    close: async () => undefined,
  });
  const payload = (n: number) => ({ data: JSON.stringify({ n }), metadata: JSON.stringify(event(n).metadata) });

  it('reports every event of each append stored, in log order, and leaves out refusals and idempotent repeats', async () => {
    const reported: EventRow[][] = [];
    const committer = new GroupCommitter(
      scripted([
        { ok: true, revision: 4, globalPosition: 11, repeat: false }, // two events: revisions 3-4 at 10-11
        { ok: false, refusal: 'wrong-revision', actual: 7 },
        { ok: true, revision: 0, globalPosition: 5, repeat: true }, // a retry: stored long ago
        { ok: true, revision: 0, globalPosition: 12, repeat: false },
      ]),
      (_stats, written) => reported.push(written),
    );
    const appends = [
      committer.enqueue('a', [event(1), event(2)], 2n),
      committer.enqueue('b', [event(3)], 6n),
      committer.enqueue('c', [event(4)], 'any'),
      committer.enqueue('d', [event(5)], 'no_stream'),
    ];
    await Promise.allSettled(appends);
    expect(reported).toEqual([
      [
        { global_position: 10, stream_id: 'a', revision: 3, event_id: 'e1', type: 'T', ...payload(1) },
        { global_position: 11, stream_id: 'a', revision: 4, event_id: 'e2', type: 'T', ...payload(2) },
        { global_position: 12, stream_id: 'd', revision: 0, event_id: 'e5', type: 'T', ...payload(5) },
      ],
    ]);
    await expect(appends[1]).rejects.toThrow(WrongExpectedRevisionError);
  });
});

describe('AdaptiveWriter', () => {
  const request = (streamId: string): AppendRequest => ({
    streamId,
    events: [{ id: streamId, type: 'T', data: '{}', metadata: '{}' }],
    expected: 'any',
  });

  const recording = (into: AppendRequest[][]): Writer => ({
    write: async (batch) => (
      into.push(batch),
      batch.map(() => ({ ok: true, revision: 0, globalPosition: 1, repeat: false }))
    ),
    close: async () => undefined,
  });

  const requests = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => request(`${prefix}${i}`));
  const streams = (batches: AppendRequest[][]) => batches.map((b) => b.map((r) => r.streamId).join('+'));

  it('writes a light batch inline only while nothing is in flight on the thread', async () => {
    const thread = new GatedWriter();
    const inline: AppendRequest[][] = [];
    const writer = new AdaptiveWriter(recording(inline), thread);
    await writer.write([request('a')]); // light, thread idle: inline
    const onThread = writer.write(requests('b', INLINE_MAX_APPENDS + 1));
    const besideIt = writer.write([request('d')]); // light, but the thread holds a batch
    expect(streams(inline)).toEqual(['a']);
    expect(thread.batches.map((b) => b[0].streamId)).toEqual(['b0', 'd']);
    thread.settleOldest();
    thread.settleOldest();
    await Promise.all([onThread, besideIt]);
    await writer.write([request('e')]); // the thread is idle again, the last batch was light: inline
    expect(streams(inline)).toEqual(['a', 'e']);
  });

  it('sends load to the thread: a batch past the light bounds, the batch right after one, and an append of several events', async () => {
    const inline: AppendRequest[][] = [];
    const thread: AppendRequest[][] = [];
    const writer = new AdaptiveWriter(recording(inline), recording(thread));
    await writer.write(requests('w', INLINE_MAX_APPENDS)); // as many appends as a light batch holds
    await writer.write(requests('x', INLINE_MAX_APPENDS + 1)); // one more: load
    await writer.write([request('y')]); // a lull in the load, not a light load
    await writer.write([request('z')]);
    const many = (streamId: string, events: number): AppendRequest => ({
      ...request(streamId),
      events: Array.from({ length: events }, (_, i) => ({ ...request(streamId).events[0], id: `${streamId}${i}` })),
    });
    await writer.write([many('m', 1)]);
    await writer.write([many('n', 2)]); // one append, but of two events: a turn or a binding
    await writer.write([request('o'), many('p', 2)]); // one such append makes the batch one for the thread
    await writer.write([request('q')]);
    expect(streams(inline)).toEqual([
      requests('w', INLINE_MAX_APPENDS)
        .map((r) => r.streamId)
        .join('+'),
      'z',
      'm',
      'q',
    ]);
    expect(streams(thread)).toEqual([
      requests('x', INLINE_MAX_APPENDS + 1)
        .map((r) => r.streamId)
        .join('+'),
      'y',
      'n',
      'o+p',
    ]);
  });

  // The inline connection never checkpoints: the thread's commits must still come, or a lone
  // writer's WAL would never be checkpointed in a commit and never restart.
  it('sends every n-th inline batch in a row to the thread, light load or not', async () => {
    const inline: AppendRequest[][] = [];
    const thread: AppendRequest[][] = [];
    const writer = new AdaptiveWriter(recording(inline), recording(thread), 4);
    for (let i = 0; i < 9; i++) await writer.write([request(`s${i}`)]);
    expect(thread.map((b) => b[0].streamId)).toEqual(['s3', 's7']);
    expect(inline).toHaveLength(7);
  });
});
