/**
 * The index thread: builds the retrieval index of a deployment's topics beside the event loop and
 * posts it back as plain data, its big arrays moved rather than copied. Messages in:
 * IndexRequest; out: { id, parts } or { id, failure }.
 */
import { parentPort } from 'node:worker_threads';
import { TopicIndex, transferablesOf, type IndexableTopic, type TopicIndexParts } from './topic-index';

export type IndexRequest = { id: number; op: 'build'; topics: IndexableTopic[] } | { op: 'exit' };
export type IndexReply = { id: number; parts: TopicIndexParts } | { id: number; failure: string };

const port = parentPort!;

port.on('message', (request: IndexRequest) => {
  if (request.op === 'exit') return port.close();
  let parts: TopicIndexParts;
  try {
    parts = TopicIndex.build(request.topics).parts();
  } catch (error) {
    return port.postMessage({
      id: request.id,
      failure: error instanceof Error ? error.message : String(error),
    } satisfies IndexReply);
  }
  port.postMessage({ id: request.id, parts } satisfies IndexReply, transferablesOf(parts));
});
