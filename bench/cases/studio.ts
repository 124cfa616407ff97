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
 * screen, and when the dashboard's first chart is drawn with data (`data-has-data="true"`). A
 * MutationObserver sees the DOM change in the same task that makes it.
 */
function initScript(session: unknown): string {
  return `
    sessionStorage.setItem('parley-studio:session', ${JSON.stringify(JSON.stringify(session))});
    window.__rows100 = null;
    window.__firstChart = null;
    new MutationObserver(() => {
      if (window.__rows100 === null && document.querySelectorAll('tr[data-conversation]').length >= 100)
        window.__rows100 = performance.now();
      if (window.__firstChart === null && document.querySelector('[data-chart][data-has-data="true"]'))
        window.__firstChart = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-has-data'] });`;
}

/** What initScript leaves on the page (this project type-checks against Node's types, not the DOM's). */
interface Marked {
  __rows100: number | null;
  __firstChart: number | null;
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

/** Navigates and answers when the first chart with data was drawn, in ms after navigation started. */
async function firstChart(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as Marked).__firstChart !== null, undefined, {
    timeout: 60_000,
  });
  return Number(await page.evaluate(() => (globalThis as unknown as Marked).__firstChart));
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
      out['studio.dashboard.first-chart'] = { figure: null, unit: 'ms', note };
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
    // the dashboard's 30 days end with the dataset's newest day: the dataset outlives the day it was seeded
    const newest = Date.parse(
      (
        rm
          .prepare("SELECT max(started_at) AS at FROM conversation WHERE agent_id = ? AND environment = 'live'")
          .get(agentBare) as { at: string }
      ).at,
    );
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
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const dashboardUrl = `${app.url}/studio/agents/${encodeURIComponent(data.agentId)}/dashboard?${new URLSearchParams(
        { range: 'custom', from: day(newest - 29 * 86_400_000), to: day(newest), by: 'day', env: 'live' },
      )}`;
      // the first visit fetches the scripts; the timed ones find them cached, as a returning user does
      const cold = await hundredRows(page, listUrl);
      await hundredRows(page, deepUrl);
      const coldChart = await firstChart(page, dashboardUrl);
      const reps = ctx.quick ? 5 : 15;
      const first: number[] = [];
      const deep: number[] = [];
      const chart: number[] = [];
      for (let i = 0; i < reps; i++) {
        first.push(await hundredRows(page, listUrl));
        deep.push(await hundredRows(page, deepUrl));
        chart.push(await firstChart(page, dashboardUrl));
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
      out['studio.dashboard.first-chart'] = {
        figure: median(chart),
        unit: 'ms',
        runs: chart.map((v) => +v.toFixed(1)),
        note: `navigation start to the agent dashboard's first chart drawn with data (30 days by day to the newest conversation, live, every channel), scripts cached (first visit: ${coldChart.toFixed(0)} ms; budget ${PAGE_BUDGET_MS} ms); ${size}`,
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
  'studio.dashboard.first-chart',
].map(figure);
