import type { ConversationSummary } from '../../projections/conversations/queries';
import { streamList } from './stream-list';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `C${i}` }) as ConversationSummary);

async function collect(stream: AsyncGenerator<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('streamList', () => {
  it('writes the unstreamed document, a group of conversations a chunk, each group rendered in one call', async () => {
    const groups: string[][] = [];
    const render = async (group: ConversationSummary[]) => (
      groups.push(group.map((s) => s.id)),
      group.map((s) => ({ id: s.id, turns: [{ text: `"${s.id}"` }] }))
    );
    const chunks = await collect(streamList(rows(5), render, 'next-page', 5, 2));
    expect(groups).toEqual([['C0', 'C1'], ['C2', 'C3'], ['C4']]);
    // the opening, three groups, the closing
    expect(chunks).toHaveLength(5);
    const unstreamed = {
      conversations: rows(5).map((s) => ({ id: s.id, turns: [{ text: `"${s.id}"` }] })),
      cursor: 'next-page',
      next_offset: 5,
    };
    expect(chunks.join('')).toBe(JSON.stringify(unstreamed));
  });

  it('writes an empty page, and a page of exactly one group', async () => {
    const render = async (group: ConversationSummary[]) => group.map((s) => ({ id: s.id }));
    expect(JSON.parse((await collect(streamList([], render, null, null, 2))).join(''))).toEqual({
      conversations: [],
      cursor: null,
      next_offset: null,
    });
    expect(JSON.parse((await collect(streamList(rows(2), render, null, null, 2))).join(''))).toEqual({
      conversations: [{ id: 'C0' }, { id: 'C1' }],
      cursor: null,
      next_offset: null,
    });
  });

  it('lets other work run between groups', async () => {
    const order: string[] = [];
    const render = async (group: ConversationSummary[]) => (
      order.push(`render ${group[0].id}`),
      group.map((s) => ({ id: s.id }))
    );
    const done = collect(streamList(rows(4), render, null, null, 2));
    setImmediate(() => order.push('other'));
    await done;
    expect(order).toEqual(['render C0', 'other', 'render C2']);
  });
});
