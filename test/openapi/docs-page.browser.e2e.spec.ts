import { type Browser, type Page } from 'playwright-core';
import { browserSuite, launchChromium } from '../support/chromium';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';

/**
 * /docs in headless Chromium (Debian's `chromium`, driven by playwright-core, as the chat demo's
 * test does): swagger-ui loads from the app's own files under its content security policy, reads
 * /openapi.json and shows the API families. Skipped with a note without a Chromium, except under CI.
 */
const suite = browserSuite('/docs browser test');

suite('/docs in headless Chromium (issue 34)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // a script or style the content security policy blocks is a console error
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  test(
    'shows the families from /openapi.json, and an operation opens with its answer schema',
    async () => {
      const response = await page.goto(`${t.url}/docs`);
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.opblock-tag', { timeout: patient(30_000) });
      const shown = await page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')));
      for (const family of ['operator', 'agents', 'deployments', 'conversations', 'chat', 'sms', 'alerts', 'messaging'])
        expect(shown).toContain(family);
      expect(await page.locator('.info .title').textContent()).toContain('Parley API');

      // open the agents family, then one operation: its 200 answer is drawn from the document
      await page.locator('.opblock-tag[data-tag="agents"]').click();
      const operation = page.locator('.opblock', { hasText: '/v1/accounts/{accountId}/agents' }).first();
      await operation.waitFor({ timeout: patient(10_000) });
      await operation.locator('.opblock-summary').first().click();
      await page.waitForSelector('.responses-wrapper', { timeout: patient(10_000) });
      const responses = await operation.locator('.responses-wrapper').textContent();
      expect(responses).toContain('agentId');
      // the credentials: swagger-ui's Authorize dialog lists the schemes
      await page.locator('.btn.authorize').first().click();
      const dialog = await page.locator('.dialog-ux').textContent();
      for (const header of ['x-api-key', 'X-Service-Auth-Token', 'x-operator-token']) expect(dialog).toContain(header);
      expect(pageErrors).toEqual([]);
    },
    patient(120_000),
  );
});
