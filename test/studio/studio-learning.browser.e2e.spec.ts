import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { browserSuite, launchChromium } from '../support/chromium';
import {
  buildAgent,
  converse,
  platformNow,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
  type TopicSpec,
} from '../helpers/conversations-fixture';
import type { Topic } from '../helpers/agents-fixture';
import { patient } from '../support/patience';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');

/**
 * The learning loop in Studio (issue 54), headless Chromium against the app: "Should have
 * been…" on a user turn of a conversation adds its words to a topic on today's fixes branch, once,
 * and links to what the branch changes; "New topic from this" opens the branch editor prefilled;
 * the dashboard's "Add to a topic…" adds an unanswered input the same way; Try it offers it too;
 * merging the branch in Studio makes the missed question cite the topic. Every wait is on a
 * condition the page shows. Without a Chromium it is skipped loudly, and fails under CI=true.
 */
const suite = browserSuite('Studio learning loop browser test');

const ROOT = path.resolve(__dirname, '..', '..');
const IMAGES = path.join(ROOT, 'docs', 'images');
const WAIT = { timeout: patient(15_000) };
const MISSED = 'can I get my money back';
const TOPICS: TopicSpec[] = [
  { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['how do refunds work'] },
  { name: 'Delivery', content: 'Delivery takes 2 days.', queries: ['when will my parcel arrive'] },
];

suite('the learning loop in Studio (issue 54)', () => {
  let f: ConversationsFixture;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let shop = '';
  let chat = '';
  let fixes = '';

  const topicOn = async (branchId: string, name: string) =>
    ((await f.api.get(`/v1/agents/${shop}/branches/${branchId}/knowledge-base/topics`)).body as Topic[]).find(
      (t) => t.name === name,
    )!;
  const fixesBranch = async () =>
    ((await f.api.get(`/v1/agents/${shop}/branches`)).body.branches as Array<Record<string, string>>).find(
      (b) => b.branchName === fixes,
    );
  /** Opens a turn's "Should have been…" picker and returns it. */
  const openPicker = async (turn: ReturnType<Page['locator']>) => {
    await turn.getByRole('button', { name: 'Should have been…' }).click();
    const picker = turn.getByRole('form', { name: 'Should have been' });
    await picker.getByRole('radio', { name: 'Refunds' }).waitFor(WAIT);
    return picker;
  };

  beforeAll(async () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    f = await startConversationsFixture('Learning Studio Co');
    shop = await buildAgent(f, 'Shop', 'Hello, this is the shop.', TOPICS, true);
    await setDataAccess(f, shop, { response_metrics: [], show_transcripts: true });
    // a sandbox conversation that missed twice; a live one the dashboard lists as unanswered
    const missed = await converse(f, shop, [MISSED, 'do you sell gift cards']);
    expect(missed.replies.map((r) => r.metadata.citedTopic)).toEqual(['', '']);
    chat = missed.id;
    const live = await converse(f, shop, ['where is your shop'], 'live');
    expect(live.replies[0].metadata.citedTopic).toBe('');

    const now = await platformNow(f.t);
    fixes = `fixes/${new Date(now).toISOString().slice(0, 10)}`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // the page's "now" (the dashboard's range, today's fixes branch) is the platform's frozen clock
    await context.clock.setFixedTime(now);
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

  it("adds a conversation turn's words to a topic on today's fixes branch and links to the branch's changes", async () => {
    await page.goto(`${f.t.url}/studio/agents/${shop}/conversations/${chat}`);
    const turn = page.locator('.chat-turn[data-turn="1"]');
    await turn.locator('.bubble.user', { hasText: MISSED }).waitFor(WAIT);
    // the greeting has no user words: nothing to learn from
    expect(
      await page.locator('.chat-turn[data-turn="0"]').getByRole('button', { name: 'Should have been…' }).count(),
    ).toBe(0);

    const picker = await openPicker(turn);
    expect(await picker.getByLabel('Branch', { exact: true }).inputValue()).toBe('');
    expect(await picker.getByLabel('New branch name').inputValue()).toBe(fixes);
    await picker.getByRole('searchbox', { name: 'Search topics' }).fill('parcel');
    expect(await picker.getByRole('radio').count()).toBe(1);
    await picker.getByRole('searchbox', { name: 'Search topics' }).fill('refund');
    await picker.getByRole('radio', { name: 'Refunds' }).check();
    await page.screenshot({ path: path.join(IMAGES, 'studio-learning.png') });
    await picker.getByRole('button', { name: 'Add to topic' }).click();
    const status = picker.getByRole('status');
    await status.waitFor(WAIT);
    expect(await status.textContent()).toContain(`Added “${MISSED}” to Refunds on ${fixes}.`);

    const branch = (await fixesBranch())!;
    expect(branch.status).toBe('open');
    expect((await topicOn(branch.branchId, 'Refunds')).exampleQueries.queries).toEqual(['how do refunds work', MISSED]);
    expect((await topicOn('main', 'Refunds')).exampleQueries.queries).toEqual(['how do refunds work']);

    await status.getByRole('link', { name: `See what ${fixes} changes` }).click();
    await page.getByRole('heading', { name: `Branch ${fixes}` }).waitFor(WAIT);
    expect(await page.getByRole('tab', { name: 'Changes' }).getAttribute('aria-selected')).toBe('true');
    const change = page.locator('[data-topic-change="Refunds"]');
    await change.waitFor(WAIT);
    expect(await change.getAttribute('data-change')).toBe('changed');
    expect(await change.locator('.added').textContent()).toContain(MISSED);
    expect(await page.locator('[data-topic-change]').count()).toBe(1);
  }, 120_000);

  it('changes nothing the second time: the open fixes branch is chosen, and the topic already has the words', async () => {
    await page.goto(`${f.t.url}/studio/agents/${shop}/conversations/${chat}`);
    const turn = page.locator('.chat-turn[data-turn="1"]');
    const picker = await openPicker(turn);
    const branch = (await fixesBranch())!;
    await picker.locator(`option[value="${branch.branchId}"]`).waitFor({ state: 'attached', ...WAIT });
    expect(await picker.getByLabel('Branch', { exact: true }).inputValue()).toBe(branch.branchId);
    await picker.getByRole('radio', { name: 'Refunds' }).check();
    await picker.getByRole('button', { name: 'Add to topic' }).click();
    await picker.getByRole('status').waitFor(WAIT);
    expect(await picker.getByRole('status').textContent()).toContain('already has');
    expect((await topicOn(branch.branchId, 'Refunds')).exampleQueries.queries).toHaveLength(2);
  }, 120_000);

  it('"New topic from this" opens the branch editor with the words as a new topic\'s example query', async () => {
    const turn = page.locator('.chat-turn[data-turn="2"]');
    await turn.getByRole('button', { name: 'Should have been…' }).click();
    const picker = turn.getByRole('form', { name: 'Should have been' });
    await picker.getByRole('radio', { name: 'Refunds' }).waitFor(WAIT);
    await picker.getByRole('button', { name: 'New topic from this' }).click();
    await page.getByRole('heading', { name: `Branch ${fixes}` }).waitFor(WAIT);
    const form = page.getByRole('form', { name: 'New topic' });
    await form.waitFor({ state: 'visible', ...WAIT });
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Sell gift cards');
    expect(await form.getByLabel('Example queries (one a line)').inputValue()).toBe('do you sell gift cards');
  }, 120_000);

  it('adds an unanswered input from the dashboard with "Add to a topic…"', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const list = page.getByRole('table', { name: 'Unanswered inputs, most frequent first' });
    const row = list.getByRole('row').filter({ hasText: 'where is your shop' });
    await row.waitFor(WAIT);
    await row.getByRole('button', { name: 'Add to a topic' }).click();
    const picker = page.getByRole('form', { name: 'Should have been' });
    await picker.getByRole('radio', { name: 'Delivery' }).waitFor(WAIT);
    const branch = (await fixesBranch())!;
    expect(await picker.getByLabel('Branch', { exact: true }).inputValue()).toBe(branch.branchId);
    await picker.getByRole('radio', { name: 'Delivery' }).check();
    await picker.getByRole('button', { name: 'Add to topic' }).click();
    await picker.getByRole('status').waitFor(WAIT);
    expect(await picker.getByRole('status').textContent()).toContain(
      `Added “where is your shop” to Delivery on ${fixes}.`,
    );
    expect((await topicOn(branch.branchId, 'Delivery')).exampleQueries.queries).toEqual([
      'when will my parcel arrive',
      'where is your shop',
    ]);
  }, 120_000);

  it('merges the branch in Studio; then Try it cites the topic, and offers "Should have been…" on its turns', async () => {
    const branch = (await fixesBranch())!;
    await page.goto(`${f.t.url}/studio/agents/${shop}/branches/${branch.branchId}`);
    await page.getByRole('heading', { name: `Branch ${fixes}` }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.locator('[data-environment="sandbox"] [data-version="2"]').waitFor(WAIT);

    await page.getByRole('link', { name: 'Try it' }).click();
    await page.getByRole('button', { name: 'Start a conversation' }).click();
    await page.locator('.bubble.agent', { hasText: 'Hello, this is the shop.' }).waitFor(WAIT);
    await page.getByRole('textbox', { name: 'Message' }).fill(MISSED);
    await page.getByRole('button', { name: 'Send' }).click();
    const turn = page.locator('.chat-turn[data-turn="1"]');
    await turn.locator('.bubble.agent', { hasText: 'Refunds take 5 days.' }).waitFor(WAIT);
    expect(await turn.locator('[data-field="cited"]').textContent()).toBe('Refunds');
    // the action is there on Try it's turns too: today's branch is merged (read-only), so a second one is offered
    const picker = await openPicker(turn);
    expect(await picker.getByLabel('Branch', { exact: true }).inputValue()).toBe('');
    expect(await picker.getByLabel('New branch name').inputValue()).toBe(`${fixes}-2`);
    await picker.getByRole('button', { name: 'Close' }).click();
    await picker.waitFor({ state: 'detached', ...WAIT });
    expect(errors).toEqual([]);
  }, 120_000);
});
