import { createHash } from 'node:crypto';

/** The digest before the first line: a file's chain starts from nothing. */
export const GENESIS = '0'.repeat(64);

const SUFFIX = /,"digest":"([0-9a-f]{64})"\}$/;

/**
 * One line of an audit file: the JSON object `body`, with a `digest` field appended that is
 * sha256(previous digest + "\n" + body). Changing, dropping, adding or reordering any line breaks
 * every digest after it; the closing line (with the count) shows a cut-off file.
 */
export function chainLine(previous: string, body: string): { line: string; digest: string } {
  if (!body.startsWith('{') || !body.endsWith('}') || body === '{}') throw new Error('a chained line is a JSON object');
  const digest = createHash('sha256').update(`${previous}\n${body}`).digest('hex');
  return { line: `${body.slice(0, -1)},"digest":"${digest}"}`, digest };
}

export type Verdict = { ok: true; lines: number; events: number } | { ok: false; line: number; reason: string };

/**
 * Checks a whole audit file: every line's digest follows from the one before, the first line is
 * the header, the last the closing line, and the closing line's count matches the events.
 */
export async function verifyChain(lines: AsyncIterable<string> | Iterable<string>): Promise<Verdict> {
  let previous = GENESIS;
  let n = 0;
  let events = 0;
  let closed: { count: unknown } | null = null;
  for await (const line of lines) {
    n++;
    if (line === '') return { ok: false, line: n, reason: 'an empty line' };
    if (closed) return { ok: false, line: n, reason: 'a line after the closing line' };
    const match = SUFFIX.exec(line);
    if (!match) return { ok: false, line: n, reason: 'no digest' };
    const body = `${line.slice(0, match.index)}}`;
    const expected = createHash('sha256').update(`${previous}\n${body}`).digest('hex');
    if (expected !== match[1])
      return { ok: false, line: n, reason: 'the digest does not follow from the lines before' };
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return { ok: false, line: n, reason: 'not JSON' };
    }
    if (n === 1 && !('header' in parsed)) return { ok: false, line: n, reason: 'the first line is not the header' };
    if ('end' in parsed) closed = { count: parsed.count };
    else if (n > 1) events++;
    previous = match[1];
  }
  if (!closed) return { ok: false, line: n, reason: 'the file has no closing line: it was cut off' };
  if (closed.count !== events)
    return {
      ok: false,
      line: n,
      reason: `the closing line counts ${String(closed.count)} events, the file holds ${events}`,
    };
  return { ok: true, lines: n, events };
}
