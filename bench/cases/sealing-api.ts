import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import { seed } from '../../src/cli/seed/seed';
import type { NewEvent } from '../../src/event-store/event-store.port';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { startBenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { get } from './conversations';

type Side = 'plain' | 'sealed' | 'erased';
type Surface = 'api' | 'audit';
type Figures = Record<Surface, Record<Side, number>> & { conversations: number };

/** The plain twin of a seeded conversation: the same events in clear under another id. */
const twinOf = (id: string) => `${id}_plain`;

/**
 * Seeded conversations (sealed, as the app stores them), each with a twin appended in clear
 * under another id: the events a conversation had before sealing existed. Written with the app
 * closed, through the raw log, so the twins carry no sealed box.
 */
async function withPlainTwins(dir: string): Promise<string[]> {
  const db = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
  const streams = (
    db.prepare(`SELECT DISTINCT stream_id AS s FROM events WHERE stream_id LIKE 'conversation-%'`).all() as Array<{
      s: string;
    }>
  ).map((r) => r.s);
  db.close();
  const opened = await openSealedSqliteLog(dir);
  const raw = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
  const ids: string[] = [];
  try {
    for (const stream of streams) {
      const id = stream.slice('conversation-'.length);
      const twin = twinOf(id);
      const events: NewEvent[] = (await opened.readStream(stream)).map((e) => ({
        id: `${e.id}-plain`,
        type: e.type,
        data: JSON.parse(JSON.stringify(e.data).split(id).join(twin)) as unknown,
        metadata: e.metadata,
      }));
      await raw.append(`conversation-${twin}`, events, 'no_stream');
      ids.push(id);
    }
  } finally {
    await raw.close();
    await opened.close();
  }
  return ids;
}

/**
 * What a reader of a conversation waits for over HTTP, sealed against plain against erased: the
 * conversation itself (GET v3, with turns: served by the read model) and its audit history
 * (GET .../events: read from the log and opened event by event). One app, one data dir, the
 * same conversations on every side; rounds alternate plain and sealed, median of each.
 */
function apiFigures(ctx: BenchContext): Promise<Figures> {
  return ctx.shared('sealing-api-figures', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-sealing-api-'));
    const count = ctx.quick ? 150 : 600;
    try {
      const seeded = await seed({
        dataDir: dir,
        conversations: count,
        agents: 1,
        days: 7,
        seed: 3,
        concurrency: 32,
        liveShare: 1,
        log: () => undefined,
      });
      const ids = await withPlainTwins(dir);
      const app = await startBenchApp(dir);
      try {
        await app.settled();
        const headers = { 'x-api-key': seeded.keys[0].key };
        const base = `${app.url}/v3/${seeded.accountId}/${seeded.agents[0].agentId}/conversations`;
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const urlOf = (surface: Surface, id: string) =>
          surface === 'api' ? `${base}/${id}?include_turn_metadata=true` : `${base}/${id}/events`;
        /** µs per read of every conversation once, through one surface. */
        const round = async (surface: Surface, idOf: (id: string) => string) => {
          const t0 = performance.now();
          for (const id of ids) {
            const r = await get(agent, urlOf(surface, idOf(id)), headers);
            if (r.status !== 200) throw new Error(`GET ${urlOf(surface, idOf(id))}: ${r.status}`);
          }
          return ((performance.now() - t0) * 1000) / ids.length;
        };
        const figures: Figures = {
          api: { plain: 0, sealed: 0, erased: 0 },
          audit: { plain: 0, sealed: 0, erased: 0 },
          conversations: ids.length,
        };
        const rounds = ctx.quick ? 3 : 5;
        for (const surface of ['api', 'audit'] as const) {
          await round(surface, twinOf); // warm-up of both sides
          await round(surface, (id) => id);
          const plain: number[] = [];
          const sealed: number[] = [];
          for (let i = 0; i < rounds; i++) {
            plain.push(await round(surface, twinOf));
            sealed.push(await round(surface, (id) => id));
          }
          figures[surface].plain = median(plain);
          figures[surface].sealed = median(sealed);
        }
        for (const id of ids) await app.call('DELETE', `${base.slice(app.url.length)}/${id}/personal-data`, headers);
        await app.settled();
        for (const surface of ['api', 'audit'] as const) {
          await round(surface, (id) => id);
          const erased: number[] = [];
          for (let i = 0; i < rounds; i++) erased.push(await round(surface, (id) => id));
          figures[surface].erased = median(erased);
        }
        agent.destroy();
        return figures;
      } finally {
        await app.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

const WHAT: Record<Surface, string> = {
  api: 'GET v3 conversation with turns (the read model)',
  audit: 'GET v3 conversation events (the log, opened event by event)',
};
const HOW: Record<Side, string> = {
  plain: 'stored in clear (a twin of the sealed one)',
  sealed: 'sealed, keys cached as in a running app',
  erased: 'after DELETE personal-data',
};

const read = (surface: Surface, side: Side): BenchCase => ({
  name: `conversations.${surface}.${side}`,
  run: async (ctx): Promise<Result> => {
    const f = await apiFigures(ctx);
    return {
      figure: f[surface][side],
      unit: 'µs/read',
      note: `${WHAT[surface]}, ${HOW[side]}; ${f.conversations} seeded conversations a round on one keep-alive connection, median of rounds alternated`,
    };
  },
});

export const sealingApiCases: BenchCase[] = (['api', 'audit'] as const).flatMap((surface) =>
  (['plain', 'sealed', 'erased'] as const).map((side) => read(surface, side)),
);
