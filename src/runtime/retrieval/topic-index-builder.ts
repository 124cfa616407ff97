import { Injectable } from '@nestjs/common';
import path from 'node:path';
import { startWorker } from '../../platform/threads/start-worker';
import { WorkerCalls } from '../../platform/threads/worker-calls';
import type { IndexReply, IndexRequest } from './index-thread';
import { TopicIndex, type IndexableTopic } from './topic-index';

/**
 * Below this much text (names, example queries and content of the active topics), an index is
 * built in place: a few milliseconds, less than a round trip to the thread; larger ones would
 * hold the event loop for a long time.
 */
export const INLINE_BUILD_MAX_CHARS = 16 * 1024;

/** How an index gets built: in place, or on the index thread (TopicIndexBuilder). */
export type BuildIndex = (topics: ReadonlyArray<IndexableTopic>) => Promise<TopicIndex>;

export const buildInPlace: BuildIndex = async (topics) => TopicIndex.build(topics);

/**
 * Builds the retrieval indexes of large knowledge bases on a thread of their own (index-thread.ts),
 * so a deployment's first turn does not stop every other conversation of the process while its
 * index is built. The thread starts on the first large build; one that died starts again on the
 * next. A build the thread cannot do (it died, or the builder is closed) is done in place: it
 * costs the event loop its time, never a turn.
 */
@Injectable()
export class TopicIndexBuilder {
  private calls: WorkerCalls<IndexReply> | null = null;
  private closed = false;
  /** Builds done on the thread (tests and metrics: small ones never go there). */
  threadBuilds = 0;

  readonly build: BuildIndex = async (topics) => {
    if (this.closed || textSize(topics) < INLINE_BUILD_MAX_CHARS) return TopicIndex.build(topics);
    let reply: IndexReply;
    try {
      reply = await this.thread().call({
        op: 'build',
        topics: topics.filter((t) => t.isActive).map(indexable),
      } satisfies Omit<Extract<IndexRequest, { op: 'build' }>, 'id'>);
    } catch {
      return TopicIndex.build(topics);
    }
    if ('failure' in reply) throw new Error(`the index thread could not build the index: ${reply.failure}`);
    this.threadBuilds++;
    return TopicIndex.fromParts(reply.parts);
  };

  /** Lets the thread finish its builds and exit; later builds are done in place. */
  async close(): Promise<void> {
    this.closed = true;
    const calls = this.calls;
    this.calls = null;
    if (calls && !calls.broken) await calls.close({ op: 'exit' } satisfies IndexRequest);
  }

  /** Kills the thread mid-build, as a crash would (tests). */
  async crash(): Promise<void> {
    await this.calls?.terminate();
  }

  private thread(): WorkerCalls<IndexReply> {
    if (!this.calls || this.calls.broken)
      this.calls = new WorkerCalls<IndexReply>(startWorker(path.join(__dirname, 'index-thread')), 'index thread');
    return this.calls;
  }
}

function textSize(topics: ReadonlyArray<IndexableTopic>): number {
  let size = 0;
  for (const t of topics) {
    if (!t.isActive) continue;
    size += t.name.length + t.content.length;
    for (const q of t.exampleQueries) size += q.length;
  }
  return size;
}

/** Only what indexing reads crosses to the thread (a topic also carries actions and the like). */
function indexable(t: IndexableTopic): IndexableTopic {
  return { id: t.id, name: t.name, content: t.content, exampleQueries: t.exampleQueries, isActive: t.isActive };
}
