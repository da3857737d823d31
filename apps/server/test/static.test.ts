import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** The built web app is served from the same port as the API, with history-mode fallback. */
let t: TestApp;
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-web-'));
beforeAll(async () => {
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>RingMES</title>');
  fs.writeFileSync(path.join(web, 'assets', 'app-123.js'), 'console.log(1)');
  // As apps/web/scripts/compress.mjs leaves them beside each asset (contents marked to tell apart).
  fs.writeFileSync(path.join(web, 'assets', 'app-123.js.br'), 'BROTLI');
  fs.writeFileSync(path.join(web, 'assets', 'app-123.js.gz'), 'GZIP');
  t = await createTestApp({ webDist: web });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(web, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('serves index.html for / and for any app route, uncached', async () => {
    for (const url of ['/', '/system/user/manage', '/login?redirect=%2Fhome']) {
      const r = await t.app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toMatch(/text\/html/);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toMatch(/default-src 'self'/);
    }
  });

  it('serves hashed assets as immutable and API misses as 404 envelopes', async () => {
    const a = await t.app.inject({ url: '/assets/app-123.js' });
    expect(a.statusCode).toBe(200);
    expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const miss = await t.app.inject({ url: '/api/v1/nothing' });
    expect(miss.statusCode).toBe(404);
    expect(miss.json().code).toBe('404');
    const file = await t.app.inject({ url: '/assets/missing.js' });
    expect(file.statusCode).toBe(404);
  });

  it('answers HEAD for the web app, its files and /api/health; API calls are GET only', async () => {
    for (const url of ['/', '/assets/app-123.js', '/api/health', '/system/user/manage']) {
      const r = await t.app.inject({ method: 'HEAD', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).toBe('');
    }
    const api = await t.app.inject({ method: 'HEAD', url: '/api/v1/dept/list' });
    expect(api.statusCode).toBe(404);
  });

  it('serves the precompressed file the browser accepts, brotli first, still immutable', async () => {
    const cases: [string | undefined, string | undefined, string][] = [
      ['gzip, deflate, br, zstd', 'br', 'BROTLI'],
      ['gzip', 'gzip', 'GZIP'],
      [undefined, undefined, 'console.log(1)'],
    ];
    for (const [accept, encoding, body] of cases) {
      const r = await t.app.inject({
        url: '/assets/app-123.js',
        headers: accept ? { 'accept-encoding': accept } : {},
      });
      expect(r.statusCode, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers['content-type']).toMatch(/javascript/);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers.vary).toMatch(/accept-encoding/i);
      expect(r.body).toBe(body);
    }
  });
});
