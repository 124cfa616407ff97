import type { ServedContent } from '../agents/deployment-content';
import type { Topic } from '../agents/agent.events';
import type { TopicIndex } from './retrieval/topic-index';
import { buildInPlace, type BuildIndex } from './retrieval/topic-index-builder';

export interface IndexedContent {
  index: TopicIndex;
  topics: ReadonlyMap<string, Topic>;
}

/** Deployments whose indexes are kept; the least recently built goes first. */
const CAPACITY = 200;

/**
 * The key of a content's index: its deployment, which never changes, or a draft's branch at its
 * content version (draft chat, contract §26), so an edit on the branch builds a new index and a
 * turn on an unchanged branch finds the one built before.
 */
const indexKeyOf = (content: ServedContent): string =>
  content.draft ? `${content.deploymentId}@${content.draft.version}` : content.deploymentId;

/**
 * The retrieval index of each deployment (or draft version) served lately. That content never
 * changes, so its index is built once, and turns that arrive while it is being built wait for that
 * one build. A build that failed is forgotten: the next turn tries again.
 */
export class TopicIndexes {
  private readonly entries = new Map<string, Promise<IndexedContent>>();

  constructor(private readonly build: BuildIndex = buildInPlace) {}

  of(content: ServedContent): Promise<IndexedContent> {
    const key = indexKeyOf(content);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = this.build(content.topics).then((index) => ({
        index,
        topics: new Map(content.topics.map((t) => [t.id, t])),
      }));
      if (this.entries.size >= CAPACITY) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, entry);
      const built = entry;
      built.catch(() => {
        if (this.entries.get(key) === built) this.entries.delete(key);
      });
    }
    return entry;
  }

  /**
   * Starts building a deployment's index if it has none yet, without waiting: a conversation's
   * greeting asks for it, so the user's first message usually finds it built.
   */
  warm(content: ServedContent): void {
    this.of(content).catch(() => undefined);
  }
}
