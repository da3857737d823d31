import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeavyReads, isHeavyUrl } from '../src/platform/http/heavy-reads.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 34 §3: one user's reads of every row (listAll, pageNum=0, exports, reports) cannot take
 * the server from everyone else: at most two in flight per user (more answer 429 at once), and
 * all users' heavy reads together leave connections to spare for the postings.
 */
let t: TestApp;
let reader: { token: string; userId: number };
let other: { token: string; userId: number };

beforeAll(async () => {
  t = await createTestApp();
  // 3,000 customers: each all-rows read takes long enough for a burst to overlap.
  await sql`INSERT INTO customer (code, name, state)
            SELECT 'HR' || lpad(i::text, 5, '0'), '重读客户' || i, '1' FROM generate_series(1, 3000) i`.execute(
    t.database.db,
  );
  reader = await t.userWith(['factory:customer:list', 'factory:customer:export']);
  other = await t.userWith(['factory:customer:list']);
});
afterAll(() => t?.close());

const get = (url: string, token: string) =>
  t.app
    .inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })
    .then((r) => ({ status: r.statusCode, body: r.json() }));
const count = (answers: { status: number }[]) => {
  const n: Record<number, number> = {};
  for (const a of answers) n[a.status] = (n[a.status] ?? 0) + 1;
  return n;
};

describe('heavy reads per user', () => {
  it('a burst of 12 listAll from one user: two run, the rest answer 429 at once; another user is served', async () => {
    const started = performance.now();
    const [burst, others] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => get('/api/v1/customer/listAll', reader.token))),
      Promise.all(Array.from({ length: 2 }, () => get('/api/v1/customer/listAll', other.token))),
    ]);
    const n = count(burst);
    expect(n[200]).toBeGreaterThanOrEqual(2);
    expect(n[429]).toBeGreaterThanOrEqual(1);
    expect(n[200] + n[429]).toBe(12);
    for (const r of burst.filter((a) => a.status === 429))
      expect(r.body).toEqual({ code: '429', message: '您的查询请求过多，请稍后再试', result: null });
    for (const r of burst.filter((a) => a.status === 200)) expect(r.body.result).toHaveLength(3000);
    expect(others.map((r) => r.status)).toEqual([200, 200]);
    expect(performance.now() - started).toBeLessThan(30_000);
    // Nothing is left counted once they are answered.
    expect(t.app.ringmes.heavyReads.stats()).toEqual({ running: 0, waiting: 0, users: 0 });
    expect((await get('/api/v1/customer/listAll', reader.token)).status).toBe(200);
  });

  it('pageNum=0 on a page route counts as heavy, a page of 20 does not', async () => {
    const all = await Promise.all(
      Array.from({ length: 8 }, () => get('/api/v1/customer/page?pageNum=0', reader.token)),
    );
    expect(count(all)[429]).toBeGreaterThanOrEqual(1);
    const pages = await Promise.all(
      Array.from({ length: 8 }, () => get('/api/v1/customer/page?pageNum=1&pageSize=20', reader.token)),
    );
    expect(count(pages)).toEqual({ 200: 8 });
  });

  it('an export counts as heavy', async () => {
    const held = [
      await t.app.ringmes.heavyReads.enter(String(reader.userId)),
      await t.app.ringmes.heavyReads.enter(String(reader.userId)),
    ];
    try {
      const r = await get('/api/v1/customer/export', reader.token);
      expect(r).toMatchObject({ status: 429, body: { code: '429' } });
      expect((await get('/api/v1/customer/page?pageNum=1', reader.token)).status).toBe(200);
    } finally {
      for (const release of held) release();
    }
    expect((await get('/api/v1/customer/export', reader.token)).status).toBe(200);
  });
});

describe('the pool share of heavy reads', () => {
  it('runs at most `slots` heavy reads at once; the others wait their turn, then 503', async () => {
    const h = new HeavyReads(2, 2, 200);
    const a = await h.enter('a');
    const b = await h.enter('b');
    let cStarted = false;
    const c = h.enter('c').then((release) => {
      cStarted = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(cStarted).toBe(false);
    expect(h.stats()).toEqual({ running: 2, waiting: 1, users: 3 });
    a();
    (await c)();
    expect(cStarted).toBe(true);
    // A wait beyond `waitMs` is a 503, and leaves nothing counted.
    const d = await h.enter('d');
    await expect(h.enter('e')).rejects.toMatchObject({ status: 503, code: '503' });
    b();
    d();
    expect(h.stats()).toEqual({ running: 0, waiting: 0, users: 0 });
  });

  it('takes all but two connections of the pool on PostgreSQL', () => {
    const { heavyReads } = t.app.ringmes;
    expect(heavyReads.perUser).toBe(2);
    expect(heavyReads.slots).toBe(t.database.kind === 'postgres' ? t.config.pgPoolMax - 2 : 2);
  });

  it('knows the heavy routes by their URL', () => {
    for (const url of [
      '/api/v1/work-report/listAll',
      '/api/v1/user/getAllUser',
      '/api/v1/customer/export',
      '/api/v1/stocktake/differenceExport/:id',
      '/api/v1/production-report/productionTotal',
      '/api/v1/finance-report/job-booking/detail',
      '/api/v1/sale-order/report',
      '/api/v1/receivable/aging',
      '/api/v1/payable/statement/export',
      '/api/v1/process-wage/sheet',
      '/api/v1/spc/chart',
    ])
      expect(isHeavyUrl('GET', url), url).toBe(true);
    for (const url of [
      '/api/v1/work-report/page',
      '/api/v1/work-report/info/:id',
      '/api/v1/export-job/:id',
      '/api/v1/work-dispatch/sheet/:id',
      '/api/v1/stocktake/countSheet/:id',
      '/api/v1/customer/importTemplate',
    ])
      expect(isHeavyUrl('GET', url), url).toBe(false);
    expect(isHeavyUrl('POST', '/api/v1/customer/listAll')).toBe(false);
  });
});
