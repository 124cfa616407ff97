import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { browserSuite, launchChromium } from '../support/chromium';
import {
  ConversationsReader,
  buildAgent,
  issueKey,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
  type TopicSpec,
} from '../helpers/conversations-fixture';
import { patient } from '../support/patience';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');

/**
 * Try it on a branch (issue 50), headless Chromium against the app: opened from a branch, it talks
 * to the branch's draft (contract §26), says what the branch changes against main, answers from
 * the draft before any merge, and switches to a deployed environment on request. Each turn's state
 * is collapsed. Every wait is on a condition the page shows. Without a Chromium it is skipped
 * loudly, and fails under CI=true.
 */
const suite = browserSuite('Studio draft chat browser test');

const ROOT = path.resolve(__dirname, '..', '..');
const WAIT = { timeout: patient(15_000) };
const TOPICS: TopicSpec[] = [
  { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['how do refunds work'] },
  { name: 'Delivery', content: 'Delivery takes 2 days.', queries: ['when will my parcel arrive'] },
];

suite('Try it on a branch: its draft, before any merge (issue 50)', () => {
  let f: ConversationsFixture;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let shop = '';
  let branchId = '';

  /** Sends a message in Try it and returns the turn it made, once the agent answered. */
  const send = async (message: string, index: number) => {
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
    const turn = page.locator(`.chat-turn[data-turn="${index}"]`);
    await turn.locator('.bubble.agent').waitFor(WAIT);
    return turn;
  };

  beforeAll(async () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    f = await startConversationsFixture('Draft Studio Co');
    shop = await buildAgent(f, 'Shop', 'Hello, this is the shop.', TOPICS);
    await setDataAccess(f, shop, { response_metrics: [], show_transcripts: true });
    // the branch adds a topic and changes another: 2 topics against main
    branchId = (await f.api.createBranch(shop, 'gift-cards')).branchId;
    await f.api.addTopic(shop, branchId, {
      name: 'Gift cards',
      content: 'Gift cards are sold at the till.',
      queries: ['do you sell gift cards'],
    });
    const refunds = (await f.api.topicByName(shop, branchId, 'Refunds'))!;
    await f.api.editTopic(shop, branchId, refunds.id, { content: 'Refunds take 3 days now.' });

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

  it("opens from a branch on its draft, with what it changes, and answers from the draft's topics", async () => {
    await page.goto(`${f.t.url}/studio/agents/${shop}/branches/${branchId}`);
    await page.getByRole('heading', { name: 'Branch gift-cards' }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Try it' }).click();
    await page.waitForURL(/\/try\?branch=/, WAIT);
    const hint = page.getByTestId('draft-hint');
    await hint.filter({ hasText: 'this branch changes' }).waitFor(WAIT);
    expect(await hint.textContent()).toContain('Talking to the draft of gift-cards');
    expect(await hint.textContent()).toContain('this branch changes 2 topics (1 added, 1 changed)');
    expect(await page.getByRole('switch', { name: 'Talk to a deployed environment instead' }).isChecked()).toBe(false);
    // a draft has no environment to choose
    expect(await page.getByRole('combobox', { name: /^Environment/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Start a conversation' }).click();
    await page.locator('.bubble.agent', { hasText: 'Hello, this is the shop.' }).waitFor(WAIT);
    const gift = await send('do you sell gift cards', 1);
    expect(await gift.locator('.bubble.agent').textContent()).toBe('Gift cards are sold at the till.');
    expect(await gift.locator('[data-field="cited"]').textContent()).toBe('Gift cards');
    const refund = await send('how do refunds work', 2);
    expect(await refund.locator('.bubble.agent').textContent()).toBe('Refunds take 3 days now.');
    await page.screenshot({ path: path.join(ROOT, 'docs', 'images', 'studio-try-it-draft.png') });

    // the state is collapsed under each turn: a line, its JSON only when opened
    const state = refund.locator('[data-field="state"]');
    expect(await state.locator('summary').textContent()).toBe('unchanged');
    expect(await state.locator('pre').isVisible()).toBe(false);
    expect((await state.boundingBox())!.height).toBeLessThan(40);
    await state.locator('summary').click();
    await state.locator('pre').waitFor({ state: 'visible', ...WAIT });
    expect(await state.locator('pre').textContent()).toContain('"environment": "draft"');

    // the conversation is a draft chat: listed with client_env=draft only
    const id = (await page.locator('a code').first().textContent())!;
    const reader = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations'] }), shop);
    expect(await reader.ids({ client_env: 'draft', limit: 100 })).toContain(id);
    expect(await reader.ids({ client_env: 'sandbox', limit: 100 })).not.toContain(id);
    // and Studio's Conversations page lists it under the draft environment
    await page.goto(`${f.t.url}/studio/agents/${shop}/conversations?client_env=draft`);
    await page.locator(`tr[data-conversation="${id}"]`).waitFor(WAIT);
    expect(await page.getByRole('combobox', { name: /^Environment/ }).inputValue()).toBe('draft');
    await page.goBack();
    await page.getByTestId('draft-hint').filter({ hasText: 'this branch changes' }).waitFor(WAIT);
    expect(errors).toEqual([]);
  }, 120_000);

  it('switches to a deployed environment, which still answers from main', async () => {
    await page.getByRole('switch', { name: 'Talk to a deployed environment instead' }).check();
    await page.getByTestId('draft-hint').filter({ hasText: 'talking to a deployed environment' }).waitFor(WAIT);
    // the draft conversation is left: a new one starts on the environment
    expect(await page.locator('.chat-turn').count()).toBe(0);
    await page.getByRole('combobox', { name: /^Environment/ }).selectOption('sandbox');
    await page.getByRole('button', { name: 'Start a conversation' }).click();
    await page.locator('.bubble.agent', { hasText: 'Hello, this is the shop.' }).waitFor(WAIT);
    const refund = await send('how do refunds work', 1);
    expect(await refund.locator('.bubble.agent').textContent()).toBe('Refunds take 5 days.');
    const gift = await send('do you sell gift cards', 2);
    expect(await gift.locator('[data-field="cited"]').textContent()).not.toBe('Gift cards');
    const id = (await page.locator('a code').first().textContent())!;
    const reader = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations'] }), shop);
    expect(await reader.ids({ client_env: 'sandbox', limit: 100 })).toContain(id);

    // and back to the draft
    await page.getByRole('switch', { name: 'Talk to a deployed environment instead' }).uncheck();
    await page.getByRole('button', { name: 'Start a conversation' }).click();
    await page.locator('.bubble.agent', { hasText: 'Hello, this is the shop.' }).waitFor(WAIT);
    const again = await send('do you sell gift cards', 1);
    expect(await again.locator('[data-field="cited"]').textContent()).toBe('Gift cards');
    expect(errors).toEqual([]);
  }, 120_000);
});
