import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newTestEvent } from './event-store.contract';
import type { RecordedEvent } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { Upcasters } from './upcasting';
import { withUpcasting } from './upcasting-event-store';

describe('withUpcasting', () => {
  it('every read path (stream, log, subscription) sees the newest shape; the stored event is unchanged', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upcast-'));
    const raw = await SqliteEventStore.open({ file: path.join(dir, 'e.sqlite'), sync: 'normal' });
    const store = withUpcasting(
      raw,
      new Upcasters([{ type: 'Old', fromVersion: 1, upcast: (d: { n: number }) => ({ count: d.n }) }]),
    );
    try {
      await store.append('s-1', [newTestEvent('Old', { n: 3 })], 'no_stream');
      expect((await store.readStream('s-1'))[0].data).toEqual({ count: 3 });
      expect((await store.readAll())[0].data).toEqual({ count: 3 });
      const seen: RecordedEvent[] = [];
      const sub = store.subscribeToAll({}, (batch) => {
        seen.push(...batch);
      });
      for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await sub.stop();
      expect(seen[0].data).toEqual({ count: 3 });
      expect((await raw.readStream('s-1'))[0].data).toEqual({ n: 3 });
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
