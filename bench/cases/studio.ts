import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { startBenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { repoRoot } from '../lib/paths';
import { JS_BUDGET_KB, PAGE_BUDGET_MS, studioScriptsGzipBytes } from '../lib/studio-bundle';
import { dataset } from './conversations';

const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/**
 * Runs in the page before its own scripts: signs in (the session Studio keeps in sessionStorage)
 * and notes, in the page's own clock (milliseconds since navigation began), when 100 rows are on
 * screen. A MutationObserver sees the DOM change in the same task that makes it.
 */
function initScript(session: unknown): string {
  return `
    sessionStorage.setItem('parley-studio:session', ${JSON.stringify(JSON.stringify(session))});
    window.__rows100 = null;
    new MutationObserver(() => {
      if (window.__rows100 === null && document.querySelectorAll('tr[data-conversation]').length >= 100)
        window.__rows100 = performance.now();
    }).observe(document, { subtree: true, childList: true });`;
}

/** What initScript leaves on the page (this project type-checks against Node's types, not the DOM's). */
interface Marked {
  __rows100: number | null;
}

/** Navigates and answers when 100 rows were first visible, in ms after navigation started. */
async function hundredRows(page: Page, url: string): Promise<number> {
  await page.goto(url);
  // functions, not strings: the page's CSP forbids evaluating strings
  await page.waitForFunction(() => (globalThis as unknown as Marked).__rows100 !== null, undefined, {
    timeout: 60_000,
  });
  return Number(await page.evaluate(() => (globalThis as unknown as Marked).__rows100));
}

interface Figures {
  [name: string]: Result;
}

async function measureAll(ctx: BenchContext): Promise<Figures> {
  return ctx.shared('studio-figures', async () => {
    const root = repoRoot();
    const studioDir = path.join(root, 'dist', 'studio');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(root, 'scripts', 'build-studio.js')).buildStudio({
      root,
      out: path.join(root, 'dist'),
      silent: true,
    });
    const jsKb = studioScriptsGzipBytes(studioDir) / 1024;
    const out: Figures = {
      'studio.bundle.js-gzip': {
        figure: jsKb,
        unit: 'KB',
        note: `every script in dist/studio/assets, gzip -9 (budget ${JS_BUDGET_KB} KB)`,
      },
    };
    const executablePath = CHROMIUM.find((p): p is string => !!p && fs.existsSync(p));
    if (!executablePath) {
      const note = `no Chromium at ${CHROMIUM.filter(Boolean).join(', ')} (apt-get install chromium, or CHROMIUM_PATH)`;
      out['studio.conversations.first-100-rows'] = { figure: null, unit: 'ms', note };
      out['studio.conversations.deep-100-rows'] = { figure: null, unit: 'ms', note };
      return out;
    }

    const data = await dataset(ctx);
    // the row 90% deep in the live listing: a time filter ending there lands the page that deep
    const rmDir = path.join(data.dir, 'read-models', 'conversations');
    const rm = new Database(
      path.join(
        rmDir,
        fs.readdirSync(rmDir).find((f) => f.endsWith('.sqlite'))!,
      ),
      {
        readonly: true,
      },
    );
    const agentBare = data.agentId.replace(/^PROJECT-/, '');
    const live = (
      rm
        .prepare("SELECT count(*) AS n FROM conversation WHERE agent_id = ? AND environment = 'live'")
        .get(agentBare) as { n: number }
    ).n;
    const depth = Math.min(900_000, Math.floor(live * 0.9));
    const deepRow = rm
      .prepare(
        "SELECT started_at FROM conversation WHERE agent_id = ? AND environment = 'live' ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET ?",
      )
      .get(agentBare, depth) as { started_at: string };
    rm.close();

    const app = await startBenchApp(data.dir, { STUDIO_DIR: studioDir });
    let browser: Browser | null = null;
    try {
      await app.settled();
      browser = await chromium.launch({
        executablePath,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript({
        content: initScript({
          mode: 'key',
          secret: data.key,
          accountId: data.accountId,
          permissions: ['conversations'],
          label: 'bench',
        }),
      });
      const page = await context.newPage();
      const listUrl = `${app.url}/studio/agents/${encodeURIComponent(data.agentId)}/conversations`;
      const deepUrl = `${listUrl}?client_env=live&end=${encodeURIComponent(deepRow.started_at)}`;
      // the first visit fetches the scripts; the timed ones find them cached, as a returning user does
      const cold = await hundredRows(page, listUrl);
      await hundredRows(page, deepUrl);
      const reps = ctx.quick ? 5 : 15;
      const first: number[] = [];
      const deep: number[] = [];
      for (let i = 0; i < reps; i++) {
        first.push(await hundredRows(page, listUrl));
        deep.push(await hundredRows(page, deepUrl));
      }
      const size = `${data.conversations.toLocaleString('en-US')} seeded conversations`;
      out['studio.conversations.first-100-rows'] = {
        figure: median(first),
        unit: 'ms',
        runs: first.map((v) => +v.toFixed(1)),
        note: `navigation start to 100 rows on screen in headless Chromium, scripts cached (cold: ${cold.toFixed(0)} ms; budget ${PAGE_BUDGET_MS} ms); ${size}`,
      };
      out['studio.conversations.deep-100-rows'] = {
        figure: median(deep),
        unit: 'ms',
        runs: deep.map((v) => +v.toFixed(1)),
        note: `the same, opened with a time filter ending ${depth.toLocaleString('en-US')} rows deep in ${live.toLocaleString('en-US')} live conversations`,
      };
      return out;
    } finally {
      await browser?.close();
      await app.close();
    }
  });
}

const figure = (name: string): BenchCase => ({ name, run: async (ctx) => (await measureAll(ctx))[name] });

export const studioCases: BenchCase[] = [
  'studio.bundle.js-gzip',
  'studio.conversations.first-100-rows',
  'studio.conversations.deep-100-rows',
].map(figure);
