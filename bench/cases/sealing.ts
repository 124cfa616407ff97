import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { turnRecorded } from '../../src/conversations/conversation.events';
import { SqliteConversationKeyStore } from '../../src/erasure/conversation-keys';
import { ConversationSealing } from '../../src/erasure/conversation-sealing';
import type { EventStore, NewEvent } from '../../src/event-store/event-store.port';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { withUpcasting } from '../../src/event-store/upcasting-event-store';
import { Upcasters } from '../../src/event-store/upcasting';
import { ServerSecret } from '../../src/platform/auth/server-secret';
import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { median } from '../lib/measure';
import { redactionPerTurn, turnCpuUs, turnOf, withPersonalData } from './debug-chat-privacy';

const TURNS = 12;
const METADATA = {
  schemaVersion: 1,
  actor: 'bench',
  correlationId: 'bench',
  causationId: null,
  occurredAt: '2026-12-07T00:00:00.000Z',
};

/** One debug-chat conversation's events as the decider records them: a start, then TURNS turns. */
function conversationEvents(id: string, texts: Array<{ user: string; agent: string }>): NewEvent[] {
  const started: NewEvent = {
    id: `${id}-0`,
    type: 'ConversationStarted',
    data: {
      conversationId: id,
      accountId: 'ws-bench',
      agentId: 'bench',
      channel: 'CHAT',
      fromNumber: '',
      toNumber: '',
    },
    metadata: METADATA,
  };
  return [
    started,
    ...texts.map((t, i) => {
      const { type, data } = turnRecorded({ ...turnOf(t.user, t.agent), turnIndex: i + 1 });
      return { id: `${id}-${i + 1}`, type, data, metadata: METADATA } as NewEvent;
    }),
  ];
}

interface ReadFigures {
  plain: number;
  sealed: number;
  erased: number;
  sealUs: number;
  conversations: number;
}

/**
 * Reading one conversation (readStream, its 13 events), plain and sealed, the key cold each time
 * (every conversation read once a round, more than the cache holds of them is not needed: a
 * conversation read is one key lookup at most), then erased; and what sealing a turn's event
 * costs. Its own log and key store in a temp dir, the same texts on both sides.
 */
function readFigures(ctx: BenchContext): Promise<ReadFigures> {
  return ctx.shared('sealing-figures', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-sealing-'));
    const kb = syntheticKnowledgeBase(200, 2000, 11);
    const texts = withPersonalData(kb.queries).map((q, i) => ({
      user: q,
      agent: kb.topics[i % kb.topics.length].content,
    }));
    const count = ctx.quick ? 300 : 2000;
    const raw = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    const keys = new SqliteConversationKeyStore(dir, ServerSecret.resolve(undefined, dir));
    const upcasters = new Upcasters([]);
    const plainStore = withUpcasting(raw, upcasters);
    try {
      const conversation = (n: number) =>
        conversationEvents(
          `AS_CHAT_${n}`,
          Array.from({ length: TURNS }, (_, i) => texts[(n * TURNS + i) % texts.length]),
        );
      // sealing alone: a turn's event through seal(), the conversation's key cached as in a running app
      const sealing = new ConversationSealing(keys);
      let sealUs = 0;
      for (let n = 0; n < count; n++) {
        const events = conversation(n);
        await plainStore.append(
          `conversation-plain-${n}`,
          events.map((e) => ({ ...e, id: `p-${e.id}` })),
        );
        // the key made (and cached) first, as a conversation's start makes it
        await sealing.seal(`conversation-AS_CHAT_${n}`, events.slice(1, 2));
        const t0 = performance.now();
        const out = await sealing.seal(`conversation-AS_CHAT_${n}`, events.slice(1));
        sealUs += ((performance.now() - t0) * 1000) / TURNS;
        await raw.append(`conversation-AS_CHAT_${n}`, [
          ...(await sealing.seal(`conversation-AS_CHAT_${n}`, events.slice(0, 1))),
          ...out,
        ]);
      }
      let touched = 0;
      const timedRead = async (stream: (n: number) => string, fresh: () => EventStore) => {
        const samples: number[] = [];
        for (let round = 0; round < 3; round++) {
          const reader = fresh();
          const t0 = performance.now();
          // every event's data read, as any reader of a conversation does (a store may parse it lazily)
          for (let n = 0; n < count; n++)
            for (const event of await reader.readStream(stream(n))) touched += event.data ? 1 : 0;
          samples.push(((performance.now() - t0) * 1000) / count);
        }
        return median(samples);
      };
      const figures: ReadFigures = { plain: 0, sealed: 0, erased: 0, sealUs: sealUs / count, conversations: count };
      const plainOf = (n: number) => `conversation-plain-${n}`;
      const sealedOf = (n: number) => `conversation-AS_CHAT_${n}`;
      // alternate, each side with a fresh sealing (cold keys), so neither rides the other's caches
      const plains: number[] = [];
      const seals: number[] = [];
      for (let i = 0; i < 3; i++) {
        plains.push(await timedRead(plainOf, () => plainStore));
        seals.push(await timedRead(sealedOf, () => withUpcasting(raw, upcasters, new ConversationSealing(keys))));
      }
      figures.plain = median(plains);
      figures.sealed = median(seals);
      for (let n = 0; n < count; n++) await keys.erase(`AS_CHAT_${n}`, new Date().toISOString());
      const erasedRuns: number[] = [];
      for (let i = 0; i < 3; i++)
        erasedRuns.push(await timedRead(sealedOf, () => withUpcasting(raw, upcasters, new ConversationSealing(keys))));
      figures.erased = median(erasedRuns);
      if (touched === 0) throw new Error('no event was read');
      return figures;
    } finally {
      await raw.close();
      await keys.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

const read = (name: string, side: 'plain' | 'sealed' | 'erased', what: string): BenchCase => ({
  name,
  run: async (ctx): Promise<Result> => {
    const f = await readFigures(ctx);
    return {
      figure: f[side],
      unit: 'µs/read',
      note: `readStream of one conversation (${TURNS + 1} events, the bench's texts with personal data), ${what}; ${f.conversations} conversations a round, median of 3 rounds alternated`,
    };
  },
});

export const sealingCases: BenchCase[] = [
  read('conversations.read.plain', 'plain', 'stored in clear, upcast'),
  read('conversations.read.sealed', 'sealed', 'sealed, its key cold (looked up in the key store)'),
  read('conversations.read.erased', 'erased', 'sealed, its key destroyed (reads [erased])'),
  {
    name: 'debug-chat.privacy.cost-share',
    run: async (ctx): Promise<Result> => {
      const sealUs = (await readFigures(ctx)).sealUs;
      const redaction = redactionPerTurn(ctx).us;
      const turn = await turnCpuUs(ctx);
      return {
        figure: turn === null ? null : (100 * (sealUs + Math.max(0, redaction))) / turn,
        unit: '% of turn CPU',
        note:
          `sealing a turn's event ${sealUs.toFixed(1)} µs (AES-256-GCM, key cached) plus redaction with every kind on ` +
          `${redaction.toFixed(1)} µs, against a debug-chat turn's server CPU ` +
          (turn === null
            ? '(not measured: run debug-chat.privacy.redact-off with it)'
            : `${turn.toFixed(0)} µs (redact-off)`),
      };
    },
  },
];
