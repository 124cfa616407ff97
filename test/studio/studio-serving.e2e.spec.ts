import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rawHttp } from '../helpers/raw-http';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Studio's files as the app serves them, from a stand-in build folder (STUDIO_DIR). */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-studio-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Parley Studio</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12.js'), 'console.log("studio")');
  fs.writeFileSync(path.join(dir, 'assets', 'index-Cd34.css'), 'body{}');
  fs.writeFileSync(path.join(dir, '.source-hash'), 'secret-ish');
  return dir;
}

describe('Studio at /studio', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fakeBuild();
    t = await startTestApp({ STUDIO_DIR: dir });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html for the app and its own routes, never cached, with a strict CSP', async () => {
    for (const p of ['/studio', '/studio/', '/studio/agents/PROJECT-abc/branches/main']) {
      const response = await fetch(`${t.url}${p}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('<title>Parley Studio</title>');
    }
  });

  it('serves hashed assets with a year-long immutable cache, and a missing asset as a 404 envelope', async () => {
    const js = await fetch(`${t.url}/studio/assets/index-Ab12.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log("studio")');
    const css = await fetch(`${t.url}/studio/assets/index-Cd34.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    const missing = await fetch(`${t.url}/studio/assets/index-gone.js`);
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, error_code: 'NOT_FOUND', data: null });
    expect(body.error_id).toEqual(expect.any(String));
  });

  it('never serves a file outside the build or a dotfile', async () => {
    for (const p of [
      '/studio/..%2f..%2fpackage.json',
      '/studio/%2e%2e/%2e%2e/package.json',
      '/studio/assets/..%2f.source-hash',
      '/studio/.source-hash',
      '/studio/%00',
      '/studio/..\\..\\package.json',
    ]) {
      const response = await rawHttp(t.url, `GET ${p} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(response.status).toBeLessThan(500);
      const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      expect(text).not.toContain('secret-ish');
      expect(text).not.toContain('"devDependencies"');
    }
  });

  it('tells the app where the APIs answer: its own host without PUBLIC_DOMAIN', async () => {
    const response = await fetch(`${t.url}/studio/config.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hosts: { build: null, platform: null } });
  });
});

describe('Studio not built', () => {
  it('answers a clear 404 envelope', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-studio-empty-'));
    const t = await startTestApp({ STUDIO_DIR: empty });
    try {
      for (const p of ['/studio', '/studio/agents']) {
        const response = await fetch(`${t.url}${p}`);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ success: false, error_code: 'STUDIO_NOT_BUILT' });
      }
    } finally {
      await t.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('Studio with PUBLIC_DOMAIN', () => {
  it('is served on any host, and sends each API family to its regional host', async () => {
    const dir = fakeBuild();
    const t = await startTestApp({ STUDIO_DIR: dir, PUBLIC_DOMAIN: 'example.test', REGION: 'uk' });
    try {
      for (const host of ['studio.example.test', 'api.uk.example.test', 'localhost']) {
        const page = await rawHttp(t.url, `GET /studio/agents HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(page.status).toBe(200);
        expect(page.headers['content-security-policy']).toContain(
          "connect-src 'self' http://api.uk.example.test http://api.uk-1.platform.example.test ws://api.uk.example.test",
        );
      }
      const config = await rawHttp(
        t.url,
        'GET /studio/config.json HTTP/1.1\r\nHost: studio.example.test\r\nConnection: close\r\n\r\n',
      );
      expect(config.body).toEqual({
        hosts: { build: 'http://api.uk.example.test', platform: 'http://api.uk-1.platform.example.test' },
      });
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
