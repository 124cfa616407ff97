import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAuditCli } from '../src/cli/audit-cli';
import {
  advanceClock,
  buildAgent,
  converse,
  issueKey,
  platformNow,
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';
import { expectEnvelope, request } from './helpers/test-app';

/*
 * A project's whole audit trail (GET /v3/{account}/{project}/events, NDJSON) and
 * `npm run audit -- export|verify`: every stored event of the project's conversations in log
 * order, filtered by data access like /conversations/{id}/events, in pages with a cursor, and a
 * file whose sha256 chain shows any change.
 */

interface Line {
  position: string;
  revision: number;
  conversation_id: string;
  type: string;
  occurred_at: string;
  actor: unknown;
  data: Record<string, unknown>;
}

const KB = [{ name: 'Hours', content: 'We open at nine.', queries: ['when do you open'] }];

describe('Project audit export', () => {
  let f: ConversationsFixture;
  let agentId: string;
  let otherId: string;
  let mine: string[];
  let laterStart: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-audit-'));

  const exportPage = async (query = '', key = f.adminKey, project = agentId) => {
    const r = await fetch(`${f.t.url}/v3/${f.accountId}/${project}/events${query}`, { headers: { 'x-api-key': key } });
    const text = await r.text();
    return { status: r.status, contentType: r.headers.get('content-type'), text };
  };
  const parse = (text: string) => {
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const end = lines.pop();
    return { events: lines as Line[], end };
  };
  const perConversation = async (id: string): Promise<Line[]> => {
    const r = await request(`${f.t.url}/v3/${f.accountId}/${agentId}/conversations/${id}/events`, {
      headers: { 'x-api-key': f.adminKey },
    });
    expect(r.status).toBe(200);
    return r.body.events.map((e: Omit<Line, 'conversation_id'>) => ({ ...e, conversation_id: id }));
  };

  beforeAll(async () => {
    f = await startConversationsFixture('Audited Co');
    agentId = await buildAgent(f, 'Audited', 'Hello', KB);
    otherId = await buildAgent(f, 'Unaudited', 'Hi', KB);
    const first = await converse(f, agentId, ['when do you open']);
    await converse(f, otherId, ['when do you open']);
    await advanceClock(f.t, 3600);
    laterStart = new Date(await platformNow(f.t)).toISOString();
    const second = await converse(f, agentId, ['when do you open', 'thanks']);
    mine = [first.id, second.id];
    // a test run's conversations belong to no audit trail
    const branch = await f.api.createBranch(agentId, 'with-tests');
    await f.api.post(`/v1/agents/${agentId}/branches/${branch.branchId}/tests`, {
      name: 'hours',
      turns: [{ user: 'when do you open' }],
    });
    const { testRunIds } = await f.api.merge(agentId, branch.branchId);
    for (let i = 0; i < 200; i++) {
      const r = await f.api.get(`/v1/agents/${agentId}/test-runs/${testRunIds[0]}`);
      if (r.body.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 180_000);
  afterAll(async () => {
    await f?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('streams every event of the project’s conversations in log order, as /conversations/{id}/events shows them', async () => {
    const page = await exportPage();
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/^application\/x-ndjson/);
    const { events, end } = parse(page.text);
    expect(end).toEqual({ end: true, next_cursor: null });
    const expected = [...(await perConversation(mine[0])), ...(await perConversation(mine[1]))].sort((a, b) =>
      a.position.localeCompare(b.position),
    );
    expect(events).toEqual(expected);
    expect(new Set(events.map((e) => e.conversation_id))).toEqual(new Set(mine));
    // transcripts are off by default: redacted here as there
    const turn = events.find((e) => e.type === 'TurnRecorded')!;
    expect(turn.data.redacted).toEqual(expect.any(String));
    expect(turn.data).not.toHaveProperty('userInput');
  });

  it('pages with limit and a cursor until next_cursor is null; any line’s position resumes after it', async () => {
    const all = parse((await exportPage()).text).events;
    const collected: Line[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const page = parse((await exportPage(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).text);
      expect(page.events.length).toBeLessThanOrEqual(3);
      collected.push(...page.events);
      cursor = page.end.next_cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(collected).toEqual(all);
    const resumed = parse((await exportPage(`?cursor=${all[4].position}`)).text);
    expect(resumed.events).toEqual(all.slice(5));
  });

  it('start_time and end_time keep the events that occurred in [start, end)', async () => {
    const all = parse((await exportPage()).text).events;
    const later = parse((await exportPage(`?start_time=${laterStart}`)).text).events;
    expect(later.length).toBeGreaterThan(0);
    expect(later).toEqual(all.filter((e) => e.occurred_at >= laterStart));
    expect(new Set(later.map((e) => e.conversation_id))).toEqual(new Set([mine[1]]));
    const earlier = parse((await exportPage(`?end_time=${laterStart}`)).text).events;
    expect([...earlier, ...later]).toEqual(all);
  });

  it('refuses bad parameters with 400 and keys that may not read the project with 401/403', async () => {
    for (const query of ['?cursor=nope', '?start_time=yesterday', '?limit=0', '?limit=abc', '?limit=20000'])
      expectEnvelope(
        await request(`${f.t.url}/v3/${f.accountId}/${agentId}/events${query}`, {
          headers: { 'x-api-key': f.adminKey },
        }),
        400,
      );
    const range = `?start_time=${laterStart}&end_time=${laterStart}`;
    expect((await exportPage(range)).status).toBe(400);
    const noConversations = await issueKey(f, { permissions: ['agents'] });
    expect((await exportPage('', noConversations)).status).toBe(403);
    const otherProjectOnly = await issueKey(f, { agents: [otherId], permissions: ['conversations'] });
    expect((await exportPage('', otherProjectOnly)).status).toBe(403);
    expect((await exportPage('', 'sk_not_a_key')).status).toBe(401);
    // the other project's trail holds its own conversation only
    const theirs = parse((await exportPage('', f.adminKey, otherId)).text).events;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((e) => !mine.includes(e.conversation_id))).toBe(true);
  });

  describe('npm run audit', () => {
    const cli = async (argv: string[]) => {
      const saved = process.env.DATA_DIR;
      process.env.DATA_DIR = f.t.dataDir;
      let text = '';
      try {
        const code = await runAuditCli(argv, { write: (chunk: string) => (text += chunk) });
        return { code, text };
      } finally {
        if (saved === undefined) delete process.env.DATA_DIR;
        else process.env.DATA_DIR = saved;
      }
    };
    const file = () => path.join(dir, 'audit.ndjson');

    it('export writes the API’s lines with a digest chain between a header and a closing line; verify accepts it', async () => {
      const all = parse((await exportPage()).text).events;
      const exported = await cli(['export', '--project', agentId, '--from', '2000-01-01T00:00:00Z', '--out', file()]);
      expect(exported).toEqual({ code: 0, text: expect.stringContaining(`wrote ${all.length} event(s)`) });
      const lines = fs
        .readFileSync(file(), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0]).toEqual({
        header: { project: agentId, from: '2000-01-01T00:00:00.000Z', to: null },
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(lines.at(-1)).toEqual({ end: true, count: all.length, digest: expect.any(String) });
      expect(
        lines.slice(1, -1).map((line) => Object.fromEntries(Object.entries(line).filter(([k]) => k !== 'digest'))),
      ).toEqual(all);
      expect(await cli(['verify', file()])).toEqual({ code: 0, text: expect.stringMatching(/^ok: /) });
    });

    it('verify fails a changed line, a dropped line and a cut-off file, naming the line', async () => {
      await cli(['export', '--project', agentId, '--out', file()]);
      const original = fs.readFileSync(file(), 'utf8').trimEnd().split('\n');
      const check = async (lines: string[]) => {
        const tampered = path.join(dir, 'tampered.ndjson');
        fs.writeFileSync(tampered, `${lines.join('\n')}\n`);
        return cli(['verify', tampered]);
      };
      const changed = [...original];
      changed[2] = changed[2].replace(/"revision":\d+/, '"revision":99');
      expect(await check(changed)).toEqual({ code: 1, text: expect.stringMatching(/^FAILED at line 3: /) });
      expect((await check([...original.slice(0, 2), ...original.slice(3)])).code).toBe(1);
      expect(await check(original.slice(0, -1))).toEqual({ code: 1, text: expect.stringMatching(/cut off/) });
      expect((await check(original)).code).toBe(0);
    });

    it('usage errors exit 2', async () => {
      expect((await cli([])).code).toBe(2);
      expect((await cli(['export', '--project', agentId])).code).toBe(2);
      expect((await cli(['export', '--project', agentId, '--from', 'soon', '--out', file()])).code).toBe(2);
      expect((await cli(['export', '--project', 'PROJECT-nosuchproj', '--out', file()])).code).toBe(2);
    });
  });
});
