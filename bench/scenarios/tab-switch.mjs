// Issue 39 §3: switching between open tabs with many open. The built app on the real server
// (PostgreSQL, demo data) in headless Chromium at 1280×800, signed in as admin:
//   - opens the first 30 visible pages of the menu tree (every top-level entry's pages in menu
//     order, 首页 and the live boards left out) one after another inside the app, each until its
//     tab is the active page and the network is quiet (300 ms, at most 3 s: some pages poll);
//   - then clicks tags of the tag bar: 30 switches round the 10 most recently opened pages (the ones a
//     keep-alive cap keeps), and 10 switches to the 10 opened first (kept without a cap, re-mounted
//     with one). Each switch is timed inside the page: from the click on the tag until the frame after
//     the one in which the chosen page is the visible active page (the click, React's render and
//     commit, style, layout); the page is left to settle (network quiet) before the next switch.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import {
  childEnv,
  ensureServerBuilt,
  freePort,
  freshPgDatabase,
  median,
  ROOT,
  SERVER_MAIN,
  startProcess,
  waitHealthy,
} from '../lib.mjs';

const { chromium } = createRequire(path.join(ROOT, 'e2e/package.json'))('playwright-core');
const OPEN = 30;
const RECENT = 10;
const TARGET_MS = 150;

/** The product's static menu tree (packages/domain), bundled for Node. */
async function menuTree(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-tabs-'));
  ctx.onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const outfile = path.join(dir, 'menu-tree.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'packages/domain/src/menu/menu-tree.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)).MENU_TREE;
}

/** Visible pages in menu order: type '2', not hidden, not 首页 (not kept) nor a live board (a stream each). */
function pagesOf(nodes, out = []) {
  for (const n of nodes) {
    if (n.type === '2' && n.path && !n.hidden && !n.noCache && !/dashboard|board|home\/info/i.test(n.path))
      out.push(n.path);
    if (n.children) pagesOf(n.children, out);
  }
  return out;
}

const p = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

/** Resolves once no request started or finished for `quietMs` (at most `maxMs`). */
function tracker(page) {
  let last = performance.now();
  let inFlight = 0;
  page.on('request', () => {
    inFlight++;
    last = performance.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = performance.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async (quietMs = 300, maxMs = 3_000) => {
    const start = performance.now();
    while ((inFlight > 0 || performance.now() - last < quietMs) && performance.now() - start < maxMs)
      await new Promise((r) => setTimeout(r, 50));
  };
}

/** In the page: clicks the tag of `path` and answers ms until the frame after `path` shows. */
function switchTo(target) {
  const shown = () => {
    const el = document.querySelector(`.rm-page[data-active="true"][data-page="${CSS.escape(target)}"]`);
    return !!el && el.getBoundingClientRect().height > 0;
  };
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  return new Promise((resolve, reject) => {
    const tag = document.querySelector(`[data-testid="tags-view"] [data-path="${CSS.escape(target)}"]`);
    if (!tag) return reject(new Error(`no tag for ${target}`));
    const t0 = performance.now();
    tag.click();
    const poll = async () => {
      while (!shown()) {
        if (performance.now() - t0 > 20_000) return reject(new Error(`${target} not shown in 20 s`));
        await frame();
      }
      await frame(); // the frame that paints it
      resolve(performance.now() - t0);
    };
    void poll();
  });
}

export default {
  name: 'tab-switch',
  description: `${OPEN} open tabs in Chromium: click on a tag → the page shown (issue 39 §3)`,
  async run(ctx) {
    if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
      throw new Error('apps/web/dist is missing: run npm run build first');
    const paths = pagesOf(await menuTree(ctx)).slice(0, OPEN);
    if (paths.length < OPEN) throw new Error(`the menu has only ${paths.length} pages to open`);
    // PostgreSQL, as the factory runs it; the demo seed gets 10 minutes (a loaded machine).
    ensureServerBuilt(ctx.log);
    const db = await freshPgDatabase(ctx);
    const port = await freePort();
    const server = startProcess(ctx, {
      args: [SERVER_MAIN],
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.url,
        SEED: 'demo',
      }),
      label: 'server',
    });
    server.base = `http://127.0.0.1:${port}`;
    ctx.log(
      `server ready in ${Math.round((await waitHealthy(server, `${server.base}/api/health`, 600_000)) / 1000)} s`,
    );
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
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
    });
    const page = await context.newPage();
    const quiet = tracker(page);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${server.base}/login?redirect=${encodeURIComponent(paths[0])}`);
    await page.locator('#userName').fill('admin');
    await page.locator('#passWord').fill('admin123');
    await page.locator('button[type=submit]').click();
    await page.locator(`.rm-page[data-active="true"][data-page="${paths[0]}"]`).waitFor({ timeout: 60_000 });
    await quiet();

    // Open the pages inside the app (a history entry and popstate, as the browser's own navigation does).
    const opened = Date.now();
    for (const to of paths.slice(1)) {
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, to);
      await page.locator(`.rm-page[data-active="true"][data-page="${to}"]`).waitFor({ timeout: 60_000 });
      await quiet();
    }
    const tabs = await page.locator('[data-testid="tags-view"] [data-path]').count();
    const kept = await page.locator('.rm-page').count();
    ctx.log(
      `${paths.length} pages opened in ${Math.round((Date.now() - opened) / 1000)} s: ${tabs} tabs, ${kept} pages mounted`,
    );

    const timeSwitch = async (to) => {
      const ms = Math.round(await page.evaluate(switchTo, to));
      if (process.env.BENCH_VERBOSE) ctx.log(`${to}: ${ms} ms`);
      await quiet(200, 1_500);
      return ms;
    };
    // Warm: one switch to each recent page and back (first-time style/layout work of the tag bar).
    const recent = paths.slice(-RECENT);
    await timeSwitch(recent[0]);
    const hot = [];
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < RECENT; i++) hot.push(await timeSwitch(recent[(i * 3 + round) % RECENT]));
    const old = [];
    for (const to of paths.slice(0, RECENT)) old.push(await timeSwitch(to));
    const mountedAfter = await page.locator('.rm-page').count();
    ctx.log(`recent tabs: ${hot.join(' ')} ms`);
    ctx.log(`oldest tabs: ${old.join(' ')} ms; ${mountedAfter} pages mounted at the end`);
    if (errors.length) ctx.log(`page errors: ${errors.slice(0, 3).join(' | ')}`);
    await context.close();

    const all = [...hot, ...old];
    return [
      {
        metric: `switch between the ${RECENT} recent of ${OPEN} open tabs, p95 of ${hot.length} (p50 ${median(hot)})`,
        value: p(hot, 0.95),
        unit: 'ms',
        target: `≤ ${TARGET_MS}`,
        pass: p(hot, 0.95) <= TARGET_MS,
      },
      {
        metric: `switch to the ${RECENT} oldest of ${OPEN} open tabs, p95 of ${old.length} (p50 ${median(old)})`,
        value: p(old, 0.95),
        unit: `ms (${mountedAfter} pages mounted)`,
      },
      {
        metric: `every switch, p95 of ${all.length}`,
        value: p(all, 0.95),
        unit: 'ms',
      },
      {
        metric: 'page errors while switching',
        value: errors.length,
        unit: '',
        target: '0',
        pass: errors.length === 0,
      },
    ];
  },
};
