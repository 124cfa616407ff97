import { readSse } from './sse';

/** A response whose body arrives in the given pieces (as a network splits it). */
const response = (pieces: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    }),
  );

async function all(pieces: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSse(response(pieces))) out.push(data);
  return out;
}

describe('readSse', () => {
  it('yields each event’s data, whatever the network splits', async () => {
    expect(await all(['data: {"a":1}\n\nda', 'ta: {"b"', ':2}\n', '\n', 'data: [DONE]\n\n'])).toEqual([
      '{"a":1}',
      '{"b":2}',
      '[DONE]',
    ]);
  });

  it('joins multi-line data, accepts CRLF and no space, skips comments and other fields', async () => {
    expect(await all([': keep-alive\r\n\r\nevent: x\r\ndata:one\r\ndata: two\r\n\r\n', 'data: last'])).toEqual([
      'one\ntwo',
      'last',
    ]);
  });

  it('refuses a line without end rather than buffering it', async () => {
    await expect(all(['data: ' + 'x'.repeat((1 << 20) + 10)])).rejects.toThrow(/too long/);
  });
});
