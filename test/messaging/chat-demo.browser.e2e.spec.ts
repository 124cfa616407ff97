import { type Browser, type Page } from 'playwright-core';
import { browserSuite, launchChromium } from '../support/chromium';
import { advanceClock, operatorKey } from '../helpers/keys-fixtures';
import { patient } from '../support/patience';
import {
  createConnector,
  DeskClient,
  GREETING,
  KB,
  startMessagingFixture,
  type MessagingFixture,
} from './messaging-fixture';

/**
 * The demo page in headless Chromium (Debian's `chromium` package, driven by playwright-core): a
 * real browser, using only the public protocol, through a whole conversation with a reconnect.
 * This test installs nothing. Without a Chromium it is skipped with a loud note on a developer's
 * machine, and fails under CI=true (`.ci/run` installs the package there).
 */
/**
 * What the browser-side functions below touch of the page. They reach it through globalThis, typed
 * as this: the project type-checks against Node's types only, without the DOM's.
 */
interface DemoPage {
  document: {
    querySelectorAll(selector: string): Iterable<{ textContent: string | null; dataset: Record<string, string> }>;
    getElementById(id: string): { textContent: string | null } | null;
  };
  parleyDemo: { statuses: string[]; chunks: number; socket: { close(): void } };
  sessionStorage: { getItem(key: string): string | null };
  location: { href: string };
}

const suite = browserSuite('chat-demo browser test');

suite('chat demo page in headless Chromium', () => {
  let f: MessagingFixture;
  let browser: Browser;
  let page: Page;
  let connectorToken: string;
  let deskKey: string;

  const bubbles = (kind: string) => page.locator(`#log .msg[data-kind="${kind}"]`);
  // user and agent bubbles as drawn, top to bottom
  const conversationOnScreen = () =>
    page.locator('#log .msg[data-kind="user"], #log .msg[data-kind="agent"]').allTextContents();
  const say = async (text: string) => {
    await page.fill('#text', text);
    await page.click('#send');
  };
  const waitForBubble = (kind: string, text: string) =>
    page.waitForFunction(
      ([k, t]) =>
        [...(globalThis as unknown as DemoPage).document.querySelectorAll(`#log .msg[data-kind="${k}"]`)].some(
          (el) => el.textContent === t && !el.dataset.streaming,
        ),
      [kind, text] as const,
      { timeout: patient(10_000) },
    );
  const waitForStatus = (status: string) =>
    page.waitForFunction(
      (s) => (globalThis as unknown as DemoPage).document.getElementById('status')?.textContent === s,
      status,
      {
        timeout: patient(10_000),
      },
    );
  // A status that lasts a quarter of a second (reconnecting) can pass between two frames of a
  // starved headless renderer: look for it in the page's record of statuses since `from`.
  const statusesSoFar = () => page.evaluate(() => (globalThis as unknown as DemoPage).parleyDemo.statuses.length);
  const waitForStatusShown = (status: string, from: number) =>
    page.waitForFunction(
      ([s, n]) => (globalThis as unknown as DemoPage).parleyDemo.statuses.slice(n).includes(s),
      [status, from] as const,
      { timeout: patient(10_000) },
    );

  beforeAll(async () => {
    // a short token lifetime: the page must renew it (4401) well within the session's idle expiry
    f = await startMessagingFixture({ MESSAGING_TOKEN_TTL_S: '60' });
    connectorToken = (await createConnector(f.t, f.account.accountId, f.agentId, 'sandbox', '127.0.0.1'))
      .connectorToken;
    deskKey = (await operatorKey(f.t, f.account.accountId, { name: 'Dana', permissions: ['desk'] })).key;
    browser = await launchChromium();
    page = await browser.newPage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it('greets, answers (streamed), survives a dropped socket and a reload, hands off to a person, and ends', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${f.t.url}/chat/demo?connector=${encodeURIComponent(connectorToken)}`);
    await waitForStatus('connected');
    await waitForBubble('agent', GREETING);

    await say('how do refunds work?');
    await waitForBubble('user', 'how do refunds work?');
    await waitForBubble('agent', KB[0].content);
    // the page asked for streaming: the answer came in chunks before the message
    expect(await page.evaluate(() => (globalThis as unknown as DemoPage).parleyDemo.chunks)).toBeGreaterThan(1);
    // each answer is drawn below the question that caused it: the server sends the user's message first
    expect(await conversationOnScreen()).toEqual([GREETING, 'how do refunds work?', KB[0].content]);

    // the socket drops: the page reconnects from the last sequence it saw, and nothing repeats
    const before = await statusesSoFar();
    await page.evaluate(() => (globalThis as unknown as DemoPage).parleyDemo.socket.close());
    await waitForStatusShown('reconnecting', before);
    await waitForStatus('connected');
    await say('when will my parcel arrive?');
    await waitForBubble('agent', KB[1].content);
    expect(await bubbles('agent').allTextContents()).toEqual([GREETING, KB[0].content, KB[1].content]);
    expect(await conversationOnScreen()).toEqual([
      GREETING,
      'how do refunds work?',
      KB[0].content,
      'when will my parcel arrive?',
      KB[1].content,
    ]);

    // a reload resumes the same session from its full history
    await page.reload();
    await waitForStatus('connected');
    await waitForBubble('agent', KB[1].content);
    expect(await bubbles('user').allTextContents()).toEqual(['how do refunds work?', 'when will my parcel arrive?']);
    expect(await bubbles('agent').allTextContents()).toEqual([GREETING, KB[0].content, KB[1].content]);

    // a person takes over from the desk
    const desk = await DeskClient.open(f.t.url, deskKey, 'Dana');
    await say('human agent please');
    const queued = await desk.next((m) => m.type === 'QUEUE_UPDATED' && m.queue.length === 1);
    desk.send({ type: 'ACCEPT', session_id: queued.queue[0].session_id });
    await page.waitForFunction(() =>
      [...(globalThis as unknown as DemoPage).document.querySelectorAll('#log .info')].some(
        (el) => el.textContent === 'Dana joined',
      ),
    );
    desk.send({ type: 'MESSAGE', session_id: queued.queue[0].session_id, text: 'Hello, Dana here.' });
    await waitForBubble('live', 'Hello, Dana here.');
    await say('thanks Dana');
    expect(
      (await desk.next((m) => m.type === 'SESSION_EVENT' && m.event.type === 'EVENT_TYPE_USER_MESSAGE')).event.payload
        .text,
    ).toBe('thanks Dana');

    await page.click('#end');
    await waitForStatus('ended');
    expect(
      (await desk.next((m) => m.type === 'SESSION_EVENT' && m.event.type === 'EVENT_TYPE_SESSION_END')).event.payload
        .reason,
    ).toBe('REASON_USER_END');
    desk.close();
    expect(errors).toEqual([]);
  }, 180_000);

  it('an expired access token closes the socket (4401): the page gets a new one and resumes the same session', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // the first test's session ended: this is a new one
    await page.goto(`${f.t.url}/chat/demo?connector=${encodeURIComponent(connectorToken)}`);
    await waitForStatus('connected');
    await waitForBubble('agent', GREETING);
    const sessionId = () =>
      page.evaluate(
        () =>
          JSON.parse(
            (globalThis as unknown as DemoPage).sessionStorage.getItem(
              `parley-demo:${new URL((globalThis as unknown as DemoPage).location.href).searchParams.get('connector')}`,
            ) ?? 'null',
          ).sessionId as string,
      );
    const before = await sessionId();

    const shown = await statusesSoFar();
    await advanceClock(f.t, 61);
    await waitForStatusShown('reconnecting', shown);
    await waitForStatus('connected');
    await say('how do refunds work?');
    await waitForBubble('agent', KB[0].content);
    expect(await sessionId()).toBe(before);
    expect(await bubbles('agent').allTextContents()).toEqual([GREETING, KB[0].content]);
    expect(errors).toEqual([]);
  }, 180_000);
});
