import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where a Chromium may be: CHROMIUM_PATH, then Debian's package (what .ci/run installs), then others. */
const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].filter((p): p is string => !!p);
const executablePath = CANDIDATES.find((p) => fs.existsSync(p));
const underCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * `describe` for a browser test, or `describe.skip` with a loud note on a machine without Chromium.
 * Under CI=true it is never skipped: a missing browser must fail the run, not hide the test.
 */
export function browserSuite(name: string): jest.Describe {
  if (!executablePath && !underCi)
    process.stderr.write(
      `\n!!! ${name} SKIPPED: no Chromium at ${CANDIDATES.join(', ')} (apt-get install -y chromium, or set CHROMIUM_PATH)\n\n`,
    );
  return executablePath || underCi ? describe : describe.skip;
}

/** Headless Chromium, or an error naming what .ci/run must install. */
export function launchChromium(): Promise<Browser> {
  if (!executablePath)
    throw new Error(
      `CI=true but no Chromium was found at ${CANDIDATES.join(', ')}: .ci/run must install the Debian chromium package`,
    );
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}
