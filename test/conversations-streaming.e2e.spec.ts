import http from 'node:http';
import { request } from './helpers/test-app';
import {
  buildAgent,
  ConversationsReader,
  converse,
  eventually,
  issueKey,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';

/** A raw GET that keeps the transfer headers fetch hides, and the body as it arrived in chunks. */
function rawGet(
  url: string,
  key: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; chunks: string[] }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'x-api-key': key } }, (res) => {
        const chunks: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }));
      })
      .on('error', reject);
  });
}

/**
 * Chunked streaming (interface.md rule 4): when the operator turns it on for a project, v3 and v2
 * lists are written a group of conversations at a time with chunked transfer encoding; the body is the
 * same JSON document, and it exposes `cursor` (which v2 then accepts). v1 never streams.
 */
describe('Conversations API chunked streaming', () => {
  let f: ConversationsFixture;
  let agentId: string;
  let key: string;
  let reader: ConversationsReader;
  let otherReader: ConversationsReader;

  beforeAll(async () => {
    f = await startConversationsFixture('Streaming Co');
    agentId = await buildAgent(f, 'Streamer', 'Hi there', [
      { name: 'Hours', content: 'We open at nine.', queries: ['when do you open'] },
    ]);
    const other = await buildAgent(f, 'Plain', 'Hello', [
      { name: 'Hours', content: 'We open at ten.', queries: ['when do you open'] },
    ]);
    await setDataAccess(f, agentId, { response_metrics: [], show_transcripts: true });
    await setDataAccess(f, other, { response_metrics: [], show_transcripts: true });
    for (let i = 0; i < 7; i++) await converse(f, agentId, ['when do you open', 'thanks']);
    for (let i = 0; i < 3; i++) await converse(f, other, ['when do you open']);
    key = await issueKey(f, { permissions: ['conversations'] });
    reader = new ConversationsReader(f, key, agentId);
    otherReader = new ConversationsReader(f, key, other);
    await eventually(async () => expect(await reader.ids({ client_env: 'sandbox', limit: 50 })).toHaveLength(7));
    await eventually(async () => expect(await otherReader.ids({ client_env: 'sandbox', limit: 50 })).toHaveLength(3));
    const on = await request(`${f.t.url}/admin/v1/agents/${agentId}/settings`, {
      method: 'PUT',
      body: { chunked_streaming: true },
      headers: { 'x-operator-token': f.t.operatorToken },
    });
    expect(on.status).toBe(200);
  }, 180_000);

  afterAll(async () => f?.close());

  const url = (version: string, project: string, query: string) =>
    `${f.t.url}/${version}/${f.accountId}/${project}/conversations?${query}`;

  it('streams v3 with chunked transfer encoding: the same JSON document, cursor included', async () => {
    const streamed = await eventually(async () => {
      const r = await rawGet(url('v3', agentId, 'client_env=sandbox&limit=5&include_latency=true'), key);
      expect(r.headers['transfer-encoding']).toBe('chunked');
      return r;
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-type']).toMatch(/^application\/json/);
    expect(streamed.headers['content-length']).toBeUndefined();
    const body = JSON.parse(streamed.chunks.join(''));
    expect(Object.keys(body)).toEqual(['conversations', 'cursor', 'next_offset']);
    expect(body.conversations).toHaveLength(5);
    expect(body.conversations[0].turns.length).toBeGreaterThan(0);
    expect(typeof body.cursor).toBe('string');
    expect(body.next_offset).toBe(5);
    // the same conversations as the other project's unstreamed shape would give
    const ids = await reader.ids({ client_env: 'sandbox', limit: 5 });
    expect(body.conversations.map((c: { id: string }) => c.id)).toEqual(ids);
  });

  it('a cursor walk over a streamed listing sees every conversation once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await rawGet(
        url('v3', agentId, `client_env=sandbox&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        key,
      );
      const body = JSON.parse(r.chunks.join(''));
      seen.push(...body.conversations.map((c: { id: string }) => c.id));
      cursor = body.cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it('v2 streams too, and then hands out and accepts cursors', async () => {
    const first = await rawGet(url('v2', agentId, 'client_env=sandbox&limit=4'), key);
    expect(first.headers['transfer-encoding']).toBe('chunked');
    const body = JSON.parse(first.chunks.join(''));
    expect(typeof body.cursor).toBe('string');
    const next = await rawGet(
      url('v2', agentId, `client_env=sandbox&limit=4&cursor=${encodeURIComponent(body.cursor)}`),
      key,
    );
    expect(next.status).toBe(200);
    expect(JSON.parse(next.chunks.join('')).conversations).toHaveLength(3);
  });

  it('without streaming, v2 has no cursor and refuses one; v3 still pages by cursor', async () => {
    const v2 = await otherReader.list({ client_env: 'sandbox', limit: 2 }, { version: 'v2' });
    expect(v2.status).toBe(200);
    expect(v2.body.cursor).toBeNull();
    expect(v2.body.next_offset).toBe(2);
    const v3 = await otherReader.list({ client_env: 'sandbox', limit: 2 });
    expect(typeof v3.body.cursor).toBe('string');
    const refused = await otherReader.list(
      { client_env: 'sandbox', limit: 2, cursor: v3.body.cursor },
      { version: 'v2' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error_message).toContain('cursor');
  });

  it('v1 never streams, even for a streaming project', async () => {
    const r = await rawGet(url('v1', agentId, 'client_env=sandbox&limit=5'), key);
    expect(r.status).toBe(200);
    expect(r.headers['transfer-encoding']).toBeUndefined();
    expect(r.headers['content-length']).toBeDefined();
    expect(JSON.parse(r.chunks.join('')).conversations).toHaveLength(5);
  });

  it('an unstreamed project answers with a content length', async () => {
    const r = await rawGet(url('v3', otherReader.projectId, 'client_env=sandbox'), key);
    expect(r.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(r.chunks.join('')).conversations).toHaveLength(3);
  });

  it('streams the very document the project answers unstreamed (stream-list.spec.ts covers pages of several groups)', async () => {
    const setStreaming = async (on: boolean) => {
      const r = await request(`${f.t.url}/admin/v1/agents/${agentId}/settings`, {
        method: 'PUT',
        body: { chunked_streaming: on },
        headers: { 'x-operator-token': f.t.operatorToken },
      });
      expect(r.status).toBe(200);
    };
    const query = 'client_env=sandbox&limit=7&include_latency=true&include_turn_metadata=true';
    try {
      await setStreaming(false);
      const plain = await eventually(async () => {
        const r = await rawGet(url('v3', agentId, query), key);
        expect(r.headers['transfer-encoding']).toBeUndefined();
        return r;
      });
      await setStreaming(true);
      const streamed = await eventually(async () => {
        const r = await rawGet(url('v3', agentId, query), key);
        expect(r.headers['transfer-encoding']).toBe('chunked');
        return r;
      });
      const body = JSON.parse(streamed.chunks.join(''));
      expect(body.conversations).toHaveLength(7);
      expect(body.conversations.every((c: { turns: unknown[] }) => c.turns.length > 0)).toBe(true);
      // the cursors are signed at each answer; everything else is the same document
      expect({ ...body, cursor: null }).toEqual({ ...JSON.parse(plain.chunks.join('')), cursor: null });
    } finally {
      await setStreaming(true);
    }
  });
});
