import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { SipServer } from '../../src/sip/sip-server';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { provision } from '../calls/calls-fixture';
import { AgentsClient, createAccount, expectOk, oneYearAhead, type AgentsAccount } from '../helpers/agents-fixture';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { browserSuite, launchChromium } from '../support/chromium';
import { patient } from '../support/patience';
import { TestSipUa } from '../voice/test-sip-ua';
import { embeddedTts, speechInstalled, until } from '../voice/voice-fixture';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');

/**
 * Issue 50 in headless Chromium: an agent's Settings tab (runtime settings on a branch checked as
 * typed with the API's own rules, a refusal only the server can make shown in its envelope, what a
 * save changed; the greeting's place; data access) and the call player on a conversation made by a
 * real SIP call on 127.0.0.1 with recording on: the recording's turns, a click on a turn seeking
 * there, and the turn playing marked as the audio goes. The call needs the embedded speech engines
 * (espeak-ng for the caller's side); without them the player's test is skipped.
 * Screenshots docs/images/studio-settings.png and docs/images/studio-call-player.png.
 */
const suite = browserSuite('Studio settings browser test');

const ROOT = path.resolve(__dirname, '..', '..');
const IMAGES = path.join(ROOT, 'docs', 'images');
const WAIT = { timeout: patient(15_000) };
const GREETING = 'Hello, how can I help?';
const OFFICE = 'Our office is in the city centre.';
const NUMBER = '+15550500001';

suite('Studio agent settings and the call player, in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let account: AgentsAccount;
  let agents: AgentsClient;
  let agentId = '';
  let branchId = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    fs.mkdirSync(IMAGES, { recursive: true });
    Object.assign(process.env, {
      RTP_PORT_MIN: '39102',
      RTP_PORT_MAX: '40000',
      VOICE_END_OF_UTTERANCE_MS: '500',
      VOICE_SILENCE_PROMPT_MS: '60000',
    });
    // the real clock: the player places turns by when the runtime took them
    t = await startTestApp({ SIP_LISTEN_PORT: '0' });
    account = await createAccount(t, 'Settings Co', ['agents', 'keys', 'conversations']);
    agents = new AgentsClient(t, account);
    ({ agentId } = await agents.createAgent('Front desk', GREETING));
    await agents.shipChange(agentId, 'office', async (branch) => {
      await agents.addTopic(agentId, branch, {
        name: 'Office',
        content: OFFICE,
        queries: ['Where is your office?'],
      });
      expectOk(
        await agents.call('PUT', `/v1/agents/${agentId}/branches/${branch}/settings`, { voice: { recording: true } }),
        200,
      );
    });
    ({ branchId } = await agents.createBranch(agentId, 'tuning'));

    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(patient(15_000));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${t.url}/studio/`);
    await page.getByLabel('API key', { exact: true }).fill(account.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor(WAIT);
  }, patient(240_000));

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    process.env = saved;
  });

  const settingsOf = async (branch: string) =>
    (await agents.get(`/v1/agents/${agentId}/branches/${branch}/settings`)).body;

  it('edits runtime settings on a branch: checked as typed, refused by the server, what changed shown', async () => {
    await page.goto(`${t.url}/studio/agents/${encodeURIComponent(agentId)}/settings`);
    await page.getByRole('heading', { name: 'Runtime settings' }).waitFor(WAIT);
    const form = page.getByRole('form', { name: 'Runtime settings' });
    await form.waitFor(WAIT);
    // opens on the open branch
    expect(await page.getByLabel('Branch', { exact: true }).inputValue()).toBe(branchId);
    const save = form.getByRole('button', { name: 'Save settings' });
    expect(await save.isDisabled()).toBe(true);

    const threshold = form.getByLabel(/^Confidence threshold/);
    await threshold.fill('2');
    const problem = form.locator('#confidence-threshold-problem');
    await problem.waitFor(WAIT);
    expect(await problem.textContent()).toBe('confidence_threshold must be a number from 0 to 1');
    expect(await threshold.getAttribute('aria-invalid')).toBe('true');
    expect(await threshold.getAttribute('aria-describedby')).toBe('confidence-threshold-problem');
    expect(await save.isDisabled()).toBe(true);
    await threshold.fill('0.4');
    expect(await problem.count()).toBe(0);
    await form.getByLabel(/^Fallback answer/).fill('');
    expect(await form.locator('#fallback-text-problem').textContent()).toBe(
      'fallback_text must be a string of 1 to 2000 characters',
    );
    await form.getByLabel(/^Fallback answer/).fill('Please call the front desk.');

    // a model for live: its temperature checked as typed, then a name only the server knows is wrong
    const live = form.locator('[data-slot="live"]');
    await live.getByLabel('live model').check();
    await live.getByLabel('Model name').fill('gpt-4o');
    await live.getByLabel('Temperature').fill('3');
    expect(await live.locator('[data-severity="error"]').textContent()).toBe(
      'environment_models.live.temperature must be a number from 0 to 2',
    );
    await live.getByLabel('Temperature').fill('0.2');
    await live.getByLabel('Endpoint').fill('nowhere');
    expect(await live.locator('[data-severity="error"]').count()).toBe(0);
    expect(await page.getByTestId('pending-changes').textContent()).toBe(
      '3 changes: confidence_threshold, fallback_text, environment_models',
    );
    await save.click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor(WAIT);
    expect(await refusal.textContent()).toBe('VALIDATION_ERROR: no model endpoint is named nowhere');
    // nothing recorded: the branch still has only what it was cut from main with
    expect((await settingsOf(branchId)).customized).toEqual(['voice']);

    // without the live model, the rest saves; the answer lists each change
    await live.getByLabel('live model').uncheck();
    await save.click();
    const done = page.getByTestId('saved-changes');
    await done.waitFor(WAIT);
    expect(await done.locator('li').allTextContents()).toEqual([
      'confidence_threshold: default → 0.4',
      "fallback_text: I'm sorry, I can't help with that. Could you rephrase your question? → Please call the front desk.",
    ]);
    const after = await settingsOf(branchId);
    expect(after.customized).toEqual(['confidence_threshold', 'fallback_text', 'voice']);
    expect(after.settings.confidence_threshold).toBe(0.4);
    // main is untouched until the branch is merged
    expect((await settingsOf('main')).customized).toEqual(['voice']);
    expect(await page.getByTestId('pending-changes').textContent()).toBe('No changes.');
    await page.screenshot({ path: path.join(IMAGES, 'studio-settings.png'), fullPage: true });

    // main is read only
    await page.getByLabel('Branch', { exact: true }).selectOption('main');
    await page.getByText('Main changes only by merging a branch').waitFor(WAIT);
    expect(await form.getByLabel(/^Confidence threshold/).isDisabled()).toBe(true);
    expect(await form.getByLabel(/^Record calls/).isChecked()).toBe(true);

    // a new branch, cut from main as the save makes it, and then the one shown
    await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'a new branch' });
    await page.getByLabel('New branch name').fill('quiet');
    await form.getByLabel(/^Small talk/).uncheck();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await done.waitFor(WAIT);
    expect(await done.locator('p').textContent()).toContain('Saved on branch quiet');
    expect(await done.locator('li').allTextContents()).toEqual(['small_talk: true → false']);
    const quiet = (await agents.get(`/v1/agents/${agentId}/branches`)).body.branches.find(
      (b: { branchName: string }) => b.branchName === 'quiet',
    );
    expect((await settingsOf(quiet.branchId)).customized).toEqual(['small_talk', 'voice']);
    await until(
      'the new branch chosen',
      async () => (await page.getByLabel('Branch', { exact: true }).inputValue()) === quiet.branchId,
      patient(5000),
    );
  });

  it('says where the greeting is set', async () => {
    expect(await page.getByTestId('greeting-note').textContent()).toContain('set when the agent is created');
  });

  it('saves data access from the agent, showing what changed', async () => {
    const form = page.getByRole('form', { name: 'Data access' });
    await form.getByLabel(/^Response metrics/).fill('CSAT, CALL_COMPLETED');
    await form.getByLabel('Show transcripts').check();
    await form.getByRole('button', { name: 'Save data access' }).click();
    const done = page.getByTestId('data-access-saved');
    await done.waitFor(WAIT);
    expect(await done.locator('li').allTextContents()).toEqual([
      'response_metrics: [] → ["CSAT","CALL_COMPLETED"]',
      'show_transcripts: false → true',
    ]);
    const r = await request(`${t.url}/v1/accounts/${account.accountId}/agents/${agentId}/data-access`, {
      headers: { 'x-api-key': account.key },
    });
    expect(r.body).toMatchObject({ response_metrics: ['CSAT', 'CALL_COMPLETED'], show_transcripts: true });
  });

  (speechInstalled ? it : it.skip)(
    'plays a real call’s recording: the turns follow the audio, a click on a turn seeks there',
    async () => {
      await provision(t, agentId, NUMBER, 'dev');
      const sipPort = t.app.get(SipServer).address()!.port;
      const ua = await TestSipUa.open({ min: 40002, max: 41000 });
      try {
        const heard: Int16Array[] = [];
        const detector = new UtteranceDetector({ endSilenceMs: 700 });
        ua.audio.onAudio((frame) => {
          for (const e of detector.push(frame)) if (e.type === 'utterance') heard.push(e.pcm);
        });
        expect(await ua.call(sipPort, NUMBER, '+15557790001')).toBe(200);
        await until('the greeting', () => heard.length >= 1, patient(20_000));
        // a second of silence, so the caller's words sit apart from the greeting in the recording
        await ua.audio.play(new Int16Array(8000));
        await ua.audio.play(await embeddedTts().synthesize('Where is your office?'));
        await until('the answer', () => heard.length >= 2, patient(30_000));
        await ua.hangUp();
      } finally {
        await ua.close();
      }
      const base = `${t.url}/v3/${account.accountId}/${agentId}/conversations`;
      const id = await until(
        'the ended call',
        async () => {
          const r = await request(`${base}?client_env=sandbox`, { headers: { 'x-api-key': account.key } });
          const c = r.body.conversations?.find((x: { in_progress: boolean; num_turns: number }) => !x.in_progress);
          if (!c) return null;
          const rec = await fetch(`${base}/${c.id}/recording`, { headers: { 'x-api-key': account.key } });
          return rec.status === 200 ? (c.id as string) : null;
        },
        patient(20_000),
      );

      await page.goto(`${t.url}/studio/agents/${encodeURIComponent(agentId)}/conversations/${encodeURIComponent(id)}`);
      const transcript = page.getByRole('list', { name: 'Call transcript' });
      await transcript.waitFor(WAIT);
      const turns = transcript.getByRole('button');
      expect(await turns.count()).toBe(2);
      expect(await turns.nth(1).textContent()).toContain(OFFICE);
      const startOf = async (i: number) => Number(await turns.nth(i).getAttribute('data-start'));
      expect(await startOf(0)).toBe(0);
      const second = await startOf(1);
      // after the greeting and the second of silence
      expect(second).toBeGreaterThan(1);
      const position = async () => Number(await page.getByTestId('call-position').getAttribute('data-seconds'));
      const current = () => page.locator('.call-turns button[aria-current="true"]').getAttribute('data-turn');
      expect(await current()).toBe('0');

      // a click on the caller's turn plays from its start, and marks it
      await turns.nth(1).click();
      expect(await current()).toBe('1');
      expect(await position()).toBeGreaterThanOrEqual(second);
      // the position moves on as the audio plays
      await until('the position moving on', async () => (await position()) > second + 0.3, patient(10_000));
      await page.screenshot({ path: path.join(IMAGES, 'studio-call-player.png'), fullPage: true });

      // back to the greeting: it is marked, then the mark moves to the caller's turn as the audio reaches it
      await turns.nth(0).click();
      expect(await current()).toBe('0');
      expect(await position()).toBeLessThan(second);
      await until(
        "the caller's turn marked as the audio reaches it",
        async () => (await current()) === '1',
        patient(20_000),
      );
      expect(await position()).toBeGreaterThanOrEqual(second);
      await page.getByRole('button', { name: 'Pause' }).click();

      // a key without `conversations` is told it may not read recordings
      const op = { 'x-operator-token': t.operatorToken };
      const builder = await request(`${t.url}/admin/v1/accounts/${account.accountId}/api-keys`, {
        headers: op,
        body: { name: 'builder', agents: 'all', permissions: ['agents'], expiresAt: oneYearAhead() },
      });
      expectOk(builder, 201);
      const other = await page.context().browser()!.newPage();
      try {
        await other.goto(`${t.url}/studio/`);
        await other.getByLabel('API key', { exact: true }).fill(builder.body.key);
        await other.getByRole('button', { name: 'Sign in' }).click();
        await other.getByRole('heading', { name: 'Agents' }).waitFor(WAIT);
        await other.goto(
          `${t.url}/studio/agents/${encodeURIComponent(agentId)}/conversations/${encodeURIComponent(id)}`,
        );
        await other.getByTestId('recording-note').waitFor(WAIT);
        expect(await other.getByTestId('recording-note').textContent()).toBe(
          'This key may not read recordings: it needs the conversations permission.',
        );
      } finally {
        await other.close();
      }

      // without transcript access there is no recording to serve, and the page says so
      const off = await request(`${t.url}/v1/accounts/${account.accountId}/agents/${agentId}/data-access`, {
        method: 'PUT',
        body: { response_metrics: [], show_transcripts: false },
        headers: { 'x-api-key': account.key },
      });
      expectOk(off, 200);
      await page.reload();
      await page.getByTestId('recording-note').waitFor(WAIT);
      expect(await page.getByTestId('recording-note').textContent()).toContain('No recording for this call');
      expect(errors).toEqual([]);
    },
    patient(120_000),
  );
});
