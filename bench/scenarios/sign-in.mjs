// Issue 10, sections 1 and 2: what the browser fetches and how long it waits from the login page
// to a list. The built app on the real server (embedded PGlite, demo data) in headless Chromium:
//   - one visit /login?redirect=/home/info → shell (with the light 首页 page): the union of every JS file the
//     browser fetched until the shell is rendered and the network is quiet, in bytes on the wire
//     (compressed, as received), and the size of `getUserByToken` on the wire;
//   - 1 + ROUNDS visits /login?redirect=<material list> in fresh contexts: the clock starts at the
//     click on 登录 (as soon as the form is usable) and stops at the first table row; the first
//     round warms the server and is reported apart; the JS union of the list visit minus the shell
//     visit is the list page's own cost.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { median, ROOT, startServer } from '../lib.mjs';

const { chromium } = createRequire(path.join(ROOT, 'e2e/package.json'))('playwright-core');
const ROUNDS = 5;
const LIST = '/factory-info/material-manage/material-list';
const SHELL = '/home/info';
const kb = (bytes) => Math.round(bytes / 102.4) / 10;

/** Records every response of a page: url, resource type and bytes on the wire (headers + body as received). */
function recordNetwork(page) {
  const seen = [];
  let last = performance.now();
  page.on('request', () => {
    last = performance.now();
  });
  page.on('requestfinished', async (req) => {
    last = performance.now();
    const sizes = await req.sizes().catch(() => undefined);
    const res = await req.response().catch(() => null);
    seen.push({
      url: req.url().split('?')[0],
      type: req.resourceType(),
      wire: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0,
      body: sizes?.responseBodySize ?? 0,
      encoding: res ? ((await res.allHeaders().catch(() => ({})))['content-encoding'] ?? '') : '',
    });
  });
  return {
    seen,
    /** Resolves once no request started or finished for `quietMs`. */
    async quiet(quietMs = 500) {
      while (performance.now() - last < quietMs) await new Promise((r) => setTimeout(r, 100));
    },
  };
}

const jsOf = (seen) => {
  const files = new Map();
  for (const r of seen) if (r.type === 'script' || r.url.endsWith('.js')) files.set(r.url, r);
  return files;
};
const sum = (files) => [...files.values()].reduce((a, r) => a + r.wire, 0);

async function fillLogin(page) {
  await page.locator('#userName').fill('admin');
  await page.locator('#passWord').fill('admin123');
}

export default {
  name: 'sign-in',
  description:
    'login page → shell (JS on the wire, getUserByToken size); 登录 click → first row of the material list',
  async run(ctx) {
    if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
      throw new Error('apps/web/dist is missing: run npm run build first');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-bench-signin-'));
    ctx.onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const server = await startServer(ctx, { DATA_DIR: dataDir, SEED: 'demo' });
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    ctx.onCleanup(() => browser.close());
    const fresh = async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      return { context, page, net: recordNetwork(page) };
    };

    // Warm-up visit (the server's first requests, the OS file cache), not measured.
    {
      const { context, page } = await fresh();
      await page.goto(`${server.base}/login`);
      await fillLogin(page);
      await page.locator('button[type=submit]').click();
      await page.getByTestId('top-menu').locator('.ant-menu-item').first().waitFor({ timeout: 30_000 });
      await context.close();
    }

    // Login page → rendered shell (the light 首页 page inside), everything fetched on the way.
    let shellJs;
    let userByToken;
    {
      const { context, page, net } = await fresh();
      await page.goto(`${server.base}/login?redirect=${encodeURIComponent(SHELL)}`);
      await fillLogin(page);
      await page.locator('button[type=submit]').click();
      await page.getByTestId('top-menu').locator('.ant-menu-item').first().waitFor({ timeout: 30_000 });
      await net.quiet();
      shellJs = jsOf(net.seen);
      userByToken = net.seen.find((r) => r.url.endsWith('/sso/getUserByToken'));
      await context.close();
    }
    const shellBytes = sum(shellJs);
    const compressed = [...shellJs.values()].filter((r) => r.encoding).length;
    ctx.log(
      `login → shell: ${shellJs.size} JS files, ${kb(shellBytes)} KB on the wire (${compressed} compressed); getUserByToken ${userByToken ? `${kb(userByToken.wire)} KB (${userByToken.encoding || 'identity'})` : 'not seen'}`,
    );

    // 登录 click → first row of the material list, fresh contexts.
    const times = [];
    let listJs;
    for (let i = 0; i < ROUNDS; i++) {
      const { context, page, net } = await fresh();
      await page.goto(`${server.base}/login?redirect=${encodeURIComponent(LIST)}`);
      await fillLogin(page);
      const t0 = performance.now();
      await page.locator('button[type=submit]').click();
      await page.locator('.ant-table-row').first().waitFor({ state: 'visible', timeout: 30_000 });
      times.push(Math.round(performance.now() - t0));
      if (i === 0) {
        await net.quiet();
        listJs = jsOf(net.seen);
      }
      await context.close();
    }
    const listOwn = [...listJs.entries()].filter(([url]) => !shellJs.has(url));
    const listOwnBytes = listOwn.reduce((a, [, r]) => a + r.wire, 0);
    ctx.log(
      `list page's own JS: ${listOwn.length} files, ${kb(listOwnBytes)} KB; rounds ${times.join(' ')} ms`,
    );
    const p50 = median(times);
    return [
      {
        metric: `JS on the wire, login page → rendered shell (union of ${shellJs.size} files)`,
        value: kb(shellBytes),
        unit: 'KB',
        target: '≤ 250',
        pass: shellBytes <= 250 * 1024,
      },
      {
        metric: 'getUserByToken (admin) on the wire',
        value: userByToken ? kb(userByToken.wire) : 'not seen',
        unit: `KB (${userByToken?.encoding || 'identity'})`,
        target: '≤ 30',
        pass: !!userByToken && userByToken.wire <= 30 * 1024,
      },
      {
        metric: `material list's own JS on top of the shell (${listOwn.length} files)`,
        value: kb(listOwnBytes),
        unit: 'KB',
        target: '≤ 120',
        pass: listOwnBytes <= 120 * 1024,
      },
      {
        metric: `登录 click → first row of the material list, median of ${ROUNDS} fresh contexts`,
        value: p50,
        unit: `ms (slowest ${Math.max(...times)})`,
        target: '≤ 1000',
        pass: p50 <= 1000,
      },
    ];
  },
};
