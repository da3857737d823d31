// The baseline of the auth-overhead benchmark: a bare `node:http` + `pg.Pool` handler running the
// statements the server runs for its list calls (captured from the PostgreSQL log by the scenario:
// env STATEMENTS, a JSON file `{ "<path?query>": [{ sql, params }] }`) and answering the same JSON
// body: the envelope, camelCase keys, bigint as number, dates as `YYYY-MM-DD HH:mm:ss` in
// Asia/Shanghai. `GET /api/v1/user/list` (user.service.ts `userPage`: the page and its total in one
// statement) and `GET /api/v1/stock-balance/page` (stock-queries.ts `balancePage`: the totals by
// unit, then the page). No authentication, no permission check, no validation, no framework.
// Env: DATABASE_URL, PORT, PG_POOL_MAX, STATEMENTS.
import fs from 'node:fs';
import http from 'node:http';
import { barePool, listen, send, shape } from './bare.mjs';

/** The server's statements for each call and their parameters (the scenario captures them). */
const STATEMENTS = JSON.parse(fs.readFileSync(process.env.STATEMENTS, 'utf8'));
const pool = barePool();

/** Each statement named, as the server's are (platform/db/prepared.ts). */
const run = (path, i) => {
  const { sql, params } = STATEMENTS[path][i];
  return pool.query({ name: `${path}#${i}`, text: sql, values: params });
};

/** The answer of each call from its statements' rows. */
const CALLS = {
  async '/api/v1/user/list'(path, pageNum, pageSize) {
    const r = await run(path, 0);
    const total = r.rows.length ? r.rows[0].page_total : 0;
    return { list: r.rows.map((row) => shape(row, 'page_total')), total, pageNum, pageSize };
  },
  async '/api/v1/stock-balance/page'(path, pageNum, pageSize) {
    const byUnit = (await run(path, 0)).rows;
    const rows = (await run(path, 1)).rows;
    return {
      list: rows.map((row) => shape(row)),
      total: byUnit[0]?.all_n ?? 0,
      pageNum,
      pageSize,
      totalsByUnit: byUnit.map((u) => ({ unitName: u.unit_name, quantity: u.qty })),
      totalAmount: byUnit[0]?.all_amount ?? '0',
    };
  },
};

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const call = CALLS[url.pathname];
  if (!call || !STATEMENTS[req.url])
    return send(res, 404, { code: '404', message: 'not found', result: null });
  const pageNum = Number(url.searchParams.get('pageNum') ?? 1) || 1;
  const pageSize = Number(url.searchParams.get('pageSize') ?? 20) || 20;
  try {
    send(res, 200, { code: '200', message: '操作成功', result: await call(req.url, pageNum, pageSize) });
  } catch {
    send(res, 500, { code: '500', message: '系统繁忙，请稍后重试', result: null });
  }
});
listen(server, pool);
