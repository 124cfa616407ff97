/** Bounds on a model's event stream: a line or an answer past these is refused, never buffered without end. */
const MAX_LINE = 1 << 20;
const MAX_TOTAL = 16 << 20;

/**
 * The `data:` payloads of a server-sent event stream, one per event (multi-line data joined with
 * newlines), as they arrive. Comments and other fields are skipped.
 */
export async function* readSse(response: Response): AsyncGenerator<string> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  let total = 0;
  let data: string[] = [];
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += bytes.byteLength;
    if (total > MAX_TOTAL) throw new Error('the model stream is too large');
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
    if (buffer.length > MAX_LINE) throw new Error('a model stream line is too long');
  }
  if (buffer.startsWith('data:')) data.push(buffer.slice(buffer[5] === ' ' ? 6 : 5));
  if (data.length > 0) yield data.join('\n');
}
