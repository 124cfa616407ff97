import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { seed, type SeedResult } from '../../src/cli/seed/seed';
import { browserSuite, launchChromium } from '../support/chromium';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { withKey } from '../helpers/keys-fixtures';
import type { Json } from '../helpers/json';
import { patient } from '../support/patience';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');

/**
 * The dashboard and the account overview (issue 49) over `npm run seed`'s demo data: three agents,
 * a month of simulated conversations on the wall clock. The overview's figures are checked against
 * the Analytics API for every agent; the pages are photographed for the README and docs/studio.md
 * (docs/images/studio-dashboard.png, studio-overview.png). Skipped loudly without a Chromium.
 */
const suite = browserSuite('Studio dashboard screenshots');

const ROOT = path.resolve(__dirname, '..', '..');
const IMAGES = path.join(ROOT, 'docs', 'images');
const WAIT = { timeout: patient(15_000) };
const DAY = 86_400_000;

suite('Studio dashboard over the seeded demo data, photographed', () => {
  let dir: string;
  let seeded: SeedResult;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    fs.mkdirSync(IMAGES, { recursive: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-dashboard-'));
    seeded = await seed({
      dataDir: dir,
      conversations: 3000,
      agents: 3,
      days: 30,
      seed: 49,
      concurrency: 64,
      liveShare: 0.8,
      log: () => undefined,
    });
    t = await startTestApp({}, dir);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    page.setDefaultTimeout(patient(15_000));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${t.url}/studio/`);
    await page.getByLabel('API key', { exact: true }).fill(seeded.keys[0].key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor(WAIT);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows an agent’s last 30 days', async () => {
    const agent = seeded.agents[0];
    await page.getByRole('link', { name: agent.name, exact: true }).click();
    await page.getByLabel('Range', { exact: true }).selectOption('30d');
    await page.locator('section.dashboard[aria-busy="false"][data-granularity="day"]').waitFor(WAIT);
    await page.locator('[data-chart="conversations"][data-has-data="true"]').waitFor(WAIT);
    expect(await page.locator('[data-chart="conversations"] tbody tr').count()).toBe(30);
    // the demo's off-topic questions are what no topic answers
    expect(await page.getByRole('table', { name: 'Unanswered inputs, most frequent first' }).textContent()).toContain(
      'tell me a joke',
    );
    await page.screenshot({ path: path.join(IMAGES, 'studio-dashboard.png'), fullPage: true });
  }, 120_000);

  it('lists the account’s agents with the API’s figures', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByLabel('Range', { exact: true }).selectOption('30d');
    await page.locator('section.overview[aria-busy="false"]').waitFor(WAIT);
    const section = page.locator('section.overview');
    const qs = new URLSearchParams({
      start_time: (await section.getAttribute('data-start'))!,
      end_time: (await section.getAttribute('data-end'))!,
    });
    expect(Date.parse(qs.get('end_time')!) - Date.parse(qs.get('start_time')!)).toBe(30 * DAY);
    for (const agent of seeded.agents) {
      const totals: Json = (
        await request(`${t.url}/v1/${seeded.accountId}/${agent.agentId}/analytics?${qs}`, {
          headers: withKey(seeded.keys[0].key),
        })
      ).body.totals;
      expect(totals.conversations).toBeGreaterThan(0);
      const row = page.locator(`.overview-table tr[data-agent="${agent.agentId}"]`);
      expect(await row.locator('[data-figure="conversations"]').getAttribute('data-value')).toBe(
        String(totals.conversations),
      );
      expect(await row.locator('[data-figure="first-response-p50"]').getAttribute('data-value')).toBe(
        String(totals.first_response_ms.p50),
      );
    }
    await page.screenshot({ path: path.join(IMAGES, 'studio-overview.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, 120_000);
});
