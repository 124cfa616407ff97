import type { ConversationSummary } from '../../projections/conversations/queries';

/**
 * Conversations rendered and written together when a list streams: their turns are one query and
 * their JSON one chunk. Conversation by conversation, a page of 100 was 100 turn queries and 100
 * chunks, and took much longer than the same page unstreamed.
 * Memory holds one group's turns at a time, whatever the page's length.
 */
const STREAM_GROUP = 50;

/**
 * The list's JSON document, the same as the unstreamed answer's, written a group of conversations
 * at a time; other requests are let in between groups of a long page.
 */
export async function* streamList(
  rows: ConversationSummary[],
  renderGroup: (group: ConversationSummary[]) => Promise<Array<Record<string, unknown>>>,
  cursor: string | null,
  nextOffset: number | null,
  groupSize = STREAM_GROUP,
): AsyncGenerator<string> {
  yield '{"conversations":[';
  for (let i = 0; i < rows.length; i += groupSize) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const rendered = await renderGroup(rows.slice(i, i + groupSize));
    yield (i === 0 ? '' : ',') + rendered.map((conversation) => JSON.stringify(conversation)).join(',');
  }
  yield `],"cursor":${JSON.stringify(cursor)},"next_offset":${JSON.stringify(nextOffset)}}`;
}
