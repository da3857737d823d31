import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GIVE_WAY_MS, HeavyReads, isHeavyUrl } from '../src/platform/http/heavy-reads.ts';
import { makeSerializer } from '../src/platform/http/serialize.ts';
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
/** The heavy reads' places are all given back (a stream's, when it closes, just after its answer). */
async function settled() {
  for (let i = 0; i < 50 && t.app.ringmes.heavyReads.stats().running > 0; i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(t.app.ringmes.heavyReads.stats()).toEqual({ running: 0, waiting: 0, users: 0 });
}
const count = (answers: { status: number }[]) => {
  const n: Record<number, number> = {};
  for (const a of answers) n[a.status] = (n[a.status] ?? 0) + 1;
  return n;
};

describe('heavy reads per user', () => {
  it('a burst of 12 listAll from one user: one runs, four wait, the rest answer 429; another user is served', async () => {
    const started = performance.now();
    const [burst, others] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => get('/api/v1/customer/listAll', reader.token))),
      Promise.all(Array.from({ length: 2 }, () => get('/api/v1/customer/listAll', other.token))),
    ]);
    const n = count(burst);
    expect(n[200]).toBeGreaterThanOrEqual(5);
    expect(n[429]).toBeGreaterThanOrEqual(1);
    expect(n[200] + n[429]).toBe(12);
    for (const r of burst.filter((a) => a.status === 429))
      expect(r.body).toEqual({ code: '429', message: '您的查询请求过多，请稍后再试', result: null });
    for (const r of burst.filter((a) => a.status === 200)) {
      expect(r.body.result).toHaveLength(3000);
      expect(r.body.result[0]).toMatchObject({
        code: expect.stringMatching(/^HR/),
        createdAt: expect.any(String),
      });
    }
    expect(others.map((r) => r.status)).toEqual([200, 200]);
    expect(performance.now() - started).toBeLessThan(30_000);
    // Nothing is left counted once they are answered.
    await settled();
    expect((await get('/api/v1/customer/listAll', reader.token)).status).toBe(200);
  });

  it('a long answer streams out in slices, compressed when the client accepts it', async () => {
    for (const [encoding, unzip] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const r = await t.app.inject({
        method: 'GET',
        url: '/api/v1/customer/listAll',
        headers: { authorization: `Bearer ${other.token}`, 'accept-encoding': encoding },
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-encoding']).toBe(encoding);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(unzip(r.rawPayload).toString());
      expect(body).toMatchObject({ code: '200', message: '操作成功' });
      expect(body.result).toHaveLength(3000);
    }
    await settled();
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

  it("an export counts as heavy; a user's second heavy read waits for a place, the sixth is refused", async () => {
    const { heavyReads } = t.app.ringmes;
    const me = String(reader.userId);
    const held = await heavyReads.enter(me);
    // A page loading two trees at once: the second waits for the first.
    const second = get('/api/v1/customer/page?pageNum=0', reader.token);
    for (let i = 0; i < 100 && heavyReads.stats().waiting < 1; i++)
      await new Promise((r) => setTimeout(r, 10));
    const queued = [heavyReads.enter(me), heavyReads.enter(me), heavyReads.enter(me)];
    expect(heavyReads.stats()).toMatchObject({ running: 1, waiting: 4 });
    const r = await get('/api/v1/customer/export', reader.token);
    expect(r).toMatchObject({ status: 429, body: { code: '429', message: '您的查询请求过多，请稍后再试' } });
    expect((await get('/api/v1/customer/page?pageNum=1', reader.token)).status).toBe(200);
    held();
    expect((await second).status).toBe(200);
    await Promise.all(queued.map((q) => q.then((release) => release())));
    await settled();
    expect((await get('/api/v1/customer/export', reader.token)).status).toBe(200);
  });
});

describe('the pool share of heavy reads', () => {
  it('gives way to the other requests under way, for a while at most', async () => {
    const h = new HeavyReads(2, 2);
    h.lightStarted();
    let through = false;
    const way = h.giveWay().then(() => {
      through = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(through).toBe(false);
    h.lightEnded();
    await way;
    expect(through).toBe(true);
    // A light request that lasts: the heavy read goes on after GIVE_WAY_MS.
    h.lightStarted();
    const started = performance.now();
    await h.giveWay();
    expect(performance.now() - started).toBeGreaterThanOrEqual(GIVE_WAY_MS - 5);
    h.lightEnded();
  });

  it('counts the light requests under way, and a long answer gives way before each slice', async () => {
    const h = t.app.ringmes.heavyReads;
    const started = vi.spyOn(h, 'lightStarted');
    const ended = vi.spyOn(h, 'lightEnded');
    const way = vi.spyOn(h, 'giveWay');
    try {
      expect((await get('/api/v1/customer/page?pageNum=1&pageSize=20', other.token)).status).toBe(200);
      expect([started.mock.calls.length, ended.mock.calls.length]).toEqual([1, 1]);
      expect(way).not.toHaveBeenCalled();
      const all = await get('/api/v1/customer/listAll', other.token);
      expect(all.body.result).toHaveLength(3000);
      // Once on entering, then before each of the 3 slices of 1,000 rows (written by the database
      // as JSON: all-rows-json.ts).
      expect(way.mock.calls.length).toBeGreaterThanOrEqual(4);
      expect(started.mock.calls.length).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    await settled();
  });

  it('reads every row in batches, typed as every other read (a portal on PostgreSQL)', async () => {
    const { db } = t.database;
    const rows: Record<string, unknown>[] = [];
    for await (const row of db
      .selectFrom('customer')
      .select(['id', 'code', 'createdAt'])
      .where('code', 'like', 'HR%')
      .orderBy('id')
      .stream(500))
      rows.push(row);
    expect(rows).toHaveLength(3000);
    expect(typeof rows[0].id).toBe('number');
    expect(rows[0].createdAt).toBeInstanceOf(Date);
    expect(rows[2999].code).toBe('HR03000');
    const whole = await db
      .selectFrom('customer')
      .select(['id', 'code', 'createdAt'])
      .where('code', 'like', 'HR%')
      .orderBy('id')
      .execute();
    expect(rows).toEqual(whole);
  });

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
    expect(heavyReads.perUser).toBe(1);
    expect(heavyReads.slots).toBe(t.database.kind === 'postgres' ? t.config.pgPoolMax - 2 : 2);
  });

  it('serializes a long answer in slices to the very text of one pass', async () => {
    const s = makeSerializer('Asia/Shanghai');
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      id: i,
      at: new Date(1_700_000_000_000 + i * 1000),
      name: `行 "${i}"`,
      none: null,
      nested: { day: new Date(0), list: [new Date(1)] },
    }));
    for (const payload of [
      { code: '200', message: '操作成功', result: rows },
      { code: '200', message: '操作成功', result: { list: rows, total: 1001, pageNum: 0 } },
      { code: '200', message: '操作成功', result: rows.slice(0, 3) },
      { code: '200', message: '操作成功', result: [] },
      { code: '200', message: '操作成功', result: null },
    ]) {
      const pieces = s.inSlices(payload);
      let text = '';
      if (pieces) for await (const piece of pieces) text += piece;
      else text = s(payload);
      expect(text).toBe(s(payload));
    }
    expect(s.inSlices({ result: rows.slice(0, 200) })).toBeUndefined();
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
