import { waitUntil } from '../fixtures/counter-projection';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { browserSuite, launchChromium } from '../support/chromium';
import { request } from '../helpers/test-app';
import {
  advanceClock,
  buildAgent,
  converse,
  ConversationsReader,
  eventually,
  issueKey,
  platformNow,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
  type TopicSpec,
} from '../helpers/conversations-fixture';
import { withKey } from '../helpers/keys-fixtures';
import type { Json } from '../helpers/json';
import { patient } from '../support/patience';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');

/**
 * Studio's analytics dashboard (issue 49) in headless Chromium, against the Analytics API's own
 * answers (contract §23): Chat API conversations with known outcomes on the manual clock, as
 * test/analytics/analytics.e2e.spec.ts makes them, and the browser's clock set to the platform's
 * so "the last 24 hours" means the same hours to both. Every figure is read from the charts' data
 * tables and the headline's `data-value`s, and compared with what the API answers for the range
 * the page says it shows. Without a Chromium it is skipped loudly, and fails under CI=true.
 */
const suite = browserSuite('Studio dashboard browser test');

const ROOT = path.resolve(__dirname, '..', '..');
const WAIT = { timeout: patient(15_000) };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TOPICS: TopicSpec[] = [
  { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['can I get a refund', 'refund my order'] },
  { name: 'Delivery', content: 'Delivery takes 2 days.', queries: ['when will my parcel arrive', 'delivery time'] },
  { name: 'Goodbye', content: 'Goodbye!', queries: ['goodbye', 'bye now'], actions: 'end_conversation' },
  {
    name: 'Speak to a human',
    content: 'Putting you through.',
    queries: ['talk to a person', 'human agent please'],
    actions: 'handoff destination=desk reason="asked for a human"',
  },
];

type Figures = Record<string, string | null>;

suite('Studio dashboard and account overview in headless Chromium', () => {
  let f: ConversationsFixture;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  let shop = '';
  let desk = '';
  let hour0 = 0;
  const ids: Record<string, string> = {};

  /** What the API answers for the range, environment and channels the dashboard says it shows. */
  const apiFor = async (agentId: string) => {
    const section = page.locator('section.dashboard');
    const qs = new URLSearchParams({
      start_time: (await section.getAttribute('data-start'))!,
      end_time: (await section.getAttribute('data-end'))!,
      granularity: (await section.getAttribute('data-granularity'))!,
      client_env: (await section.getAttribute('data-env'))!,
    });
    const r = await request(`${f.t.url}/v1/${f.accountId}/${agentId}/analytics?${qs}`, {
      headers: withKey(f.adminKey),
    });
    expect(r.status).toBe(200);
    return r.body;
  };
  /** The dashboard once it shows an answer for this granularity and environment. */
  const shown = (granularity: string, env = 'live') =>
    page
      .locator(`section.dashboard[aria-busy="false"][data-granularity="${granularity}"][data-env="${env}"]`)
      .waitFor(WAIT);
  const headline = async (): Promise<Figures> =>
    Object.fromEntries(
      await page
        .locator('.headline dd')
        .evaluateAll((dds) => dds.map((dd) => [dd.getAttribute('data-figure'), dd.getAttribute('data-value')])),
    );
  /** A chart's data table: per bucket time, each series' raw value ('' = no data). */
  const table = (chart: string) =>
    page.locator(`[data-chart="${chart}"] tbody tr`).evaluateAll((rows) =>
      rows.map((row) => ({
        time: row.getAttribute('data-time'),
        ...Object.fromEntries(
          Array.from(row.querySelectorAll('td') as Iterable<typeof row>).map((td) => [
            td.getAttribute('data-series'),
            td.getAttribute('data-value'),
          ]),
        ),
      })),
    );
  const pct = (part: number, whole: number) => (whole > 0 ? String((part / whole) * 100) : '');
  const raw = (v: number | null) => (v === null ? '' : String(v));
  /** Every chart's table, as the API's buckets say it should read. */
  const expectCharts = async (answer: Json) => {
    const buckets: Json[] = answer.buckets;
    expect(await table('conversations')).toEqual(
      buckets.map((b) => ({ time: b.time, Conversations: String(b.conversations) })),
    );
    expect(await table('rates')).toEqual(
      buckets.map((b) => ({
        time: b.time,
        Containment: pct(b.contained, b.conversations),
        Handoffs: pct(b.handoffs, b.conversations),
      })),
    );
    expect(await table('first-response')).toEqual(
      buckets.map((b) => ({ time: b.time, p50: raw(b.first_response_ms.p50), p90: raw(b.first_response_ms.p90) })),
    );
    expect(await table('duration')).toEqual(
      buckets.map((b) => ({ time: b.time, p50: raw(b.duration_s.p50), p90: raw(b.duration_s.p90) })),
    );
  };
  const expectHeadline = async (totals: Json) =>
    expect(await headline()).toEqual({
      conversations: String(totals.conversations),
      containment: pct(totals.contained, totals.conversations),
      handoffs: pct(totals.handoffs, totals.conversations),
      abandoned: String(totals.abandoned),
      'first-response-p50': raw(totals.first_response_ms.p50),
    });

  beforeAll(async () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    f = await startConversationsFixture('Insight Co');
    shop = await buildAgent(f, 'Shop', 'Hello, this is the shop.', TOPICS, true);
    desk = await buildAgent(f, 'Desk line', 'Hello, this is the desk.', TOPICS, true);
    for (const agent of [shop, desk]) await setDataAccess(f, agent, { response_metrics: [], show_transcripts: true });
    const chatKey = await issueKey(f, { permissions: ['conversations', 'chat'] });
    const chat = async (agent: string, action: 'create' | 'respond' | 'close', body: Json) => {
      const r = await request(`${f.t.url}/v1/${f.accountId}/${agent}/chat/${action}`, {
        method: action === 'close' ? 'PUT' : 'POST',
        body,
        headers: withKey(chatKey),
      });
      expect([200, 201, 204]).toContain(r.status);
      return r.body;
    };
    /** A Chat API conversation on live: each message `gapS` after the last, then closed unless it ended. */
    const live = async (messages: string[], gapS = 0, agent = shop) => {
      const id = (await chat(agent, 'create', {})).conversation_id as string;
      let ended = false;
      for (const message of messages) {
        if (gapS) await advanceClock(f.t, gapS);
        ended = (await chat(agent, 'respond', { conversation_id: id, message })).end_conversation === true;
      }
      if (!ended) {
        if (gapS) await advanceClock(f.t, gapS);
        await chat(agent, 'close', { conversation_id: id });
      }
      return id;
    };
    // to one minute past the next hour mark: hour0; hour0 + 1 stays empty
    const now = await platformNow(f.t);
    hour0 = Math.ceil(now / HOUR) * HOUR;
    await advanceClock(f.t, (hour0 + 60_000 - now) / 1000);
    ids.contained = await live(['can I get a refund', 'goodbye'], 10);
    ids.handoff = await live(['human agent please']);
    ids.abandoned = await live([], 3);
    ids.unanswered = await live(['what is the weather on mars', 'What is the WEATHER on Mars?!'], 5);
    ids.sandbox = (await converse(f, shop, ['can I get a refund'], 'sandbox')).id;
    ids.desk = await live(['talk to a person'], 2, desk);
    await advanceClock(f.t, 2 * 3600);
    ids.later = await live(['delivery time'], 20);
    const reader = new ConversationsReader(f, f.adminKey, shop);
    await eventually(async () => {
      const r = await reader.list({ client_env: 'live', limit: 50 });
      expect(r.body.conversations).toHaveLength(5);
      expect(r.body.conversations.every((c: Json) => c.in_progress === false)).toBe(true);
    }, patient(10_000));

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    // the page's "now" is the platform's frozen clock, so its ranges are the hours the app counted in
    await context.clock.setFixedTime(await platformNow(f.t));
    page = await context.newPage();
    page.setDefaultTimeout(patient(15_000));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${f.t.url}/studio/`);
    await page.getByLabel('API key', { exact: true }).fill(f.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor(WAIT);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it('opens an agent on its dashboard: the last 7 days by day, figures as the API answers them', async () => {
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await shown('day');
    expect(new URL(page.url()).pathname).toBe(`/studio/agents/${shop}`);
    expect(await page.getByLabel('Range', { exact: true }).inputValue()).toBe('7d');
    const answer = await apiFor(shop);
    expect(answer.buckets).toHaveLength(7);
    expect(answer.totals).toMatchObject({ conversations: 5, contained: 3, handoffs: 1, abandoned: 1 });
    await expectHeadline(answer.totals);
    expect(await page.locator('[data-figure="containment"]').textContent()).toBe('60.0 %');
    await expectCharts(answer);
    // each chart is an image named by its title, described by a summary of its figures
    const volume = page.getByRole('img', { name: 'Conversations per day' });
    await volume.waitFor(WAIT);
    const described = await volume.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('Conversations: 5 in total');
    expect(await page.locator('[data-chart="conversations"]').getAttribute('data-has-data')).toBe('true');
    // top topics, by turns cited
    const topics = await page
      .locator('[data-chart="topics"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [r.getAttribute('data-topic'), r.querySelector('td')!.getAttribute('data-value')]),
      );
    expect(topics).toEqual(answer.top_topics.map((t: Json) => [t.topic, String(t.turns)]));
  }, 120_000);

  it('switches to the last 24 hours by hour: an empty hour is zero conversations and no data, not 0 ms', async () => {
    await page.getByLabel('Range', { exact: true }).selectOption('24h');
    await shown('hour');
    expect(new URL(page.url()).searchParams.get('range')).toBe('24h');
    const answer = await apiFor(shop);
    expect(answer.buckets).toHaveLength(24);
    await expectHeadline(answer.totals);
    await expectCharts(answer);
    const at = (h: number) => new Date(hour0 + h * HOUR).toISOString();
    const rows = await table('conversations');
    expect(rows.filter((r) => r.time! >= at(0)).slice(0, 3)).toEqual([
      { time: at(0), Conversations: '4' },
      { time: at(1), Conversations: '0' },
      { time: at(2), Conversations: '1' },
    ]);
    const empty = page.locator(`[data-chart="first-response"] tr[data-time="${at(1)}"] td`).first();
    expect(await empty.textContent()).toBe('no data');
    expect(await empty.getAttribute('data-value')).toBe('');
    // the figures as a visible table, on demand
    const chart = page.locator('[data-chart="conversations"]');
    await chart.getByRole('button', { name: 'Show the figures' }).click();
    await chart.locator('table').waitFor({ state: 'visible', ...WAIT });
    expect(await chart.getByRole('button', { name: 'Hide the figures' }).getAttribute('aria-expanded')).toBe('true');
  }, 120_000);

  it('switches environment and channels, and the figures follow', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('sandbox');
    await shown('hour', 'sandbox');
    const sandbox = await apiFor(shop);
    expect(sandbox.totals.conversations).toBe(1);
    await expectHeadline(sandbox.totals);
    await expectCharts(sandbox);

    await page.getByLabel('Environment', { exact: true }).selectOption('live');
    await shown('hour', 'live');
    await page.getByLabel('SMS').check();
    await page.locator('[data-figure="conversations"][data-value="0"]').waitFor(WAIT);
    expect(new URL(page.url()).searchParams.getAll('channel')).toEqual(['SMS']);
    expect(await page.locator('[data-chart="conversations"]').getAttribute('data-has-data')).toBe('false');
    expect(await page.locator('[data-figure="first-response-p50"]').textContent()).toBe('no data');
    await page.getByLabel('SMS').uncheck();
    await page.locator('[data-figure="conversations"][data-value="5"]').waitFor(WAIT);
  }, 120_000);

  it('lists the unanswered input grouped, and "Create topic from this" opens the branch editor prefilled', async () => {
    const list = page.getByRole('table', { name: 'Unanswered inputs, most frequent first' });
    const row = list.getByRole('row').filter({ hasText: 'what is the weather on mars' });
    await row.waitFor(WAIT);
    expect(await list.locator('tbody tr').count()).toBe(1);
    expect(await row.locator('[data-value]').getAttribute('data-value')).toBe('2');
    expect(await row.getByRole('link').getAttribute('href')).toBe(
      `/studio/agents/${shop}/conversations/${ids.unanswered}`,
    );

    // the agent's only branch is merged: the topic goes on a new one, named after it
    await row.getByRole('button', { name: 'Create topic from this' }).click();
    const chooser = page.getByRole('form', { name: 'Create a topic' });
    await chooser.getByLabel('New branch name').waitFor(WAIT);
    expect(await chooser.getByLabel('Branch', { exact: true }).inputValue()).toBe('');
    expect(await chooser.getByLabel('New branch name').inputValue()).toBe('topic-weather-on-mars');
    await chooser.getByRole('button', { name: 'Open in the branch editor' }).click();
    await page.getByRole('heading', { name: 'Branch topic-weather-on-mars' }).waitFor(WAIT);
    const form = page.getByRole('form', { name: 'New topic' });
    await form.waitFor({ state: 'visible', ...WAIT });
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Weather on mars');
    expect(await form.getByLabel('Example queries (one a line)').inputValue()).toBe('what is the weather on mars');
    await form.getByLabel('Content (the answer)').fill('We only know the weather on Earth.');
    await form.getByRole('button', { name: 'Add topic' }).click();
    await page.locator('[data-topic="Weather on mars"]').waitFor(WAIT);
    expect(new URL(page.url()).search).toBe('');
    const branches = (await f.api.get(`/v1/agents/${shop}/branches`)).body.branches as Json[];
    const branch = branches.find((b) => b.branchName === 'topic-weather-on-mars')!;
    expect(branch.status).toBe('open');
    const topics = (await f.api.get(`/v1/agents/${shop}/branches/${branch.branchId}/knowledge-base/topics`)).body;
    expect(topics.find((t: Json) => t.name === 'Weather on mars')).toMatchObject({
      content: 'We only know the weather on Earth.',
      exampleQueries: { queries: ['what is the weather on mars'] },
    });

    // with an open branch, the next topic goes there unless another is chosen
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await shown('day');
    await page.getByRole('button', { name: 'Create topic from this' }).click();
    const again = page.getByRole('form', { name: 'Create a topic' });
    await again.getByRole('button', { name: 'Open in the branch editor' }).waitFor(WAIT);
    expect(await again.getByLabel('Branch', { exact: true }).inputValue()).toBe(branch.branchId);
    expect(await again.getByLabel('New branch name').count()).toBe(0);
    await again.getByRole('button', { name: 'Open in the branch editor' }).click();
    await page.getByRole('heading', { name: 'Branch topic-weather-on-mars' }).waitFor(WAIT);
    expect(await page.getByRole('form', { name: 'New topic' }).getByLabel('Name', { exact: true }).inputValue()).toBe(
      'Weather on mars',
    );
  }, 120_000);

  it('lists every agent of the account on the overview, each with its figures and a link to its dashboard', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Account overview' }).waitFor(WAIT);
    await page.locator('section.overview[aria-busy="false"]').waitFor(WAIT);
    const rows = await page.locator('.overview-table tr[data-agent]').evaluateAll((trs) =>
      trs.map((tr) => ({
        agent: tr.getAttribute('data-agent'),
        ...Object.fromEntries(
          Array.from(tr.querySelectorAll('td[data-figure]') as Iterable<typeof tr>).map((td) => [
            td.getAttribute('data-figure'),
            td.getAttribute('data-value'),
          ]),
        ),
      })),
    );
    const overview = page.locator('section.overview');
    expect(await overview.getAttribute('data-granularity')).toBe('day');
    const qs = new URLSearchParams({
      start_time: (await overview.getAttribute('data-start'))!,
      end_time: (await overview.getAttribute('data-end'))!,
    });
    expect(Date.parse(qs.get('end_time')!) - Date.parse(qs.get('start_time')!)).toBe(7 * DAY);
    const week = async (agent: string) =>
      (await request(`${f.t.url}/v1/${f.accountId}/${agent}/analytics?${qs}`, { headers: withKey(f.adminKey) })).body
        .totals;
    const figures = (agent: string, t: Json) => ({
      agent,
      conversations: String(t.conversations),
      containment: pct(t.contained, t.conversations),
      handoffs: pct(t.handoffs, t.conversations),
      'first-response-p50': raw(t.first_response_ms.p50),
    });
    const [shopWeek, deskWeek] = [await week(shop), await week(desk)];
    expect(deskWeek).toMatchObject({ conversations: 1, handoffs: 1 });
    expect(rows).toEqual(
      expect.arrayContaining([
        figures(shop, shopWeek),
        figures(desk, deskWeek),
        { agent: 'all', conversations: '6', containment: pct(3, 6), handoffs: pct(2, 6) },
      ]),
    );
    expect(rows).toHaveLength(3);

    await page.getByLabel('Range', { exact: true }).selectOption('24h');
    await page.getByRole('link', { name: 'Desk line' }).click();
    await shown('hour');
    expect(new URL(page.url()).pathname).toBe(`/studio/agents/${desk}/dashboard`);
    expect(await page.locator('[data-figure="handoffs"]').getAttribute('data-value')).toBe('100');
  }, 120_000);

  it('says transcripts are hidden for this project, with a link to its data access', async () => {
    await setDataAccess(f, shop, { response_metrics: [], show_transcripts: false });
    try {
      await page.goto(`${f.t.url}/studio/agents/${shop}`);
      await shown('day');
      const hidden = page.getByTestId('transcripts-hidden');
      await hidden.waitFor(WAIT);
      expect(await hidden.textContent()).toContain('transcripts are hidden for this project');
      expect(await page.getByRole('table', { name: 'Unanswered inputs, most frequent first' }).count()).toBe(0);
      await hidden.getByRole('link', { name: 'Show them on the data access page' }).click();
      await page.getByRole('heading', { name: 'Data access per agent' }).waitFor(WAIT);
      const form = page.getByRole('form', { name: 'Data access' });
      // the form is enabled once it holds the agent's saved settings
      await waitUntil(
        () => form.getByRole('button', { name: 'Save data access' }).isEnabled(),
        'the data access form to load',
        15_000,
        100,
      );
      expect(await page.getByRole('region', { name: 'Data access per agent' }).getByRole('combobox').inputValue()).toBe(
        shop,
      );
      expect(await form.getByLabel('Show transcripts').isChecked()).toBe(false);
    } finally {
      await setDataAccess(f, shop, { response_metrics: [], show_transcripts: true });
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('opens the agent on its branches for a key that cannot read conversations', async () => {
    const builder = await issueKey(f, { permissions: ['agents'] });
    const other = await context.newPage();
    try {
      await other.goto(`${f.t.url}/studio/`);
      await other.getByLabel('API key', { exact: true }).fill(builder);
      await other.getByRole('button', { name: 'Sign in' }).click();
      await other.getByRole('heading', { name: 'Agents' }).waitFor(WAIT);
      await other.goto(`${f.t.url}/studio/agents/${shop}`);
      await other.getByRole('heading', { name: 'Branch main' }).waitFor(WAIT);
      const tabs = other.getByRole('navigation', { name: 'Agent sections' });
      expect(await tabs.getByRole('link').allTextContents()).toEqual([
        'Branches',
        'Deployments',
        'Try it',
        'Conversations',
        'Settings',
      ]);
      expect(await other.getByRole('link', { name: 'Overview' }).count()).toBe(0);
    } finally {
      await other.close();
    }
  }, 120_000);
});
