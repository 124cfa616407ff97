/**
 * The bodies tenant A floods `POST /v1/accounts/{A}/agents` with (cases/edge-flood.ts). No ~1 MiB
 * body can be a valid agent (its two fields hold about 2 KB), so each ends in a refusal; where it
 * is refused is what it costs:
 * - `items`: the agent's fields and an `items` array of small objects up to the body limit: read,
 *   depth-scanned, parsed, and walked by class-transformer before the unknown key answers 400;
 * - `string`: an agent whose greeting is the whole body: parsed, then 400 on its length;
 * - `too-large`: half again the limit, with a Content-Length: 413 before a byte is read;
 * - `wrong-type`: the limit's size as `text/plain`: read whole, then 415.
 */
export type FloodShape = 'items' | 'string' | 'too-large' | 'wrong-type';

export interface FloodBody {
  contentType: string;
  body: Buffer;
}

/** Room left under the limit, so the JSON shapes stay within it whatever their last element's size. */
const MARGIN = 256;

export function floodBody(shape: FloodShape, limit: number): FloodBody {
  switch (shape) {
    case 'items':
      return json(itemsBody(limit - MARGIN));
    case 'string':
      return json(stringBody(limit - MARGIN));
    case 'too-large':
      return json(itemsBody(Math.round(limit * 1.5)));
    case 'wrong-type':
      return { contentType: 'text/plain', body: Buffer.from('x'.repeat(limit - MARGIN)) };
  }
}

const json = (text: string): FloodBody => ({ contentType: 'application/json', body: Buffer.from(text) });

function itemsBody(bytes: number): string {
  const head = '{"name":"flood","responseSettings":{"greeting":"hi"},"items":[';
  const parts: string[] = [];
  let size = head.length + 3;
  for (let i = 0; ; i++) {
    const item = JSON.stringify({
      id: `item-${i}`,
      text: 'lorem ipsum dolor sit amet',
      n: i,
      tags: ['a', 'b'],
      ok: true,
    });
    if (size + item.length + 1 > bytes) break;
    parts.push(item);
    size += item.length + 1;
  }
  return `${head}${parts.join(',')}]}`;
}

function stringBody(bytes: number): string {
  const head = '{"name":"flood","responseSettings":{"greeting":"';
  const tail = '"}}';
  return `${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`;
}
