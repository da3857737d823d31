// The baseline of the master-list benchmark: a bare `node:http` + `pg.Pool` handler that answers
// list calls by running the statements the real server was seen running for them (captured from
// the PostgreSQL log by the scenario: paging.ts `paginate` = a count(*) then a LIMIT/OFFSET page,
// read backwards past the middle, or for the first page one statement with the count in it; a capped count over its cap answers the cap with
// `totalExact: false`, and the page is read forwards), with the same JSON shape: the envelope, camelCase keys, int8 as
// number, numeric as string, dates as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai. No authentication,
// no permission check, no validation, no framework.
// Env: DATABASE_URL, PORT, PG_POOL_MAX, ROUTES (a JSON file: { "<path?query>": { statements:
// [{ sql, params }], pageNum, pageSize, reverse, countCap? } }).
import fs from 'node:fs';
import http from 'node:http';
import { barePool, listen, send, shape } from './bare.mjs';

const routes = JSON.parse(fs.readFileSync(process.env.ROUTES, 'utf8'));
const pool = barePool();

const server = http.createServer(async (req, res) => {
  const route = routes[req.url];
  if (!route) return send(res, 404, { code: '404', message: 'not found', result: null });
  try {
    let rows = [];
    let counted;
    if (route.statements.length === 1) {
      // The first page: one statement, the page with its capped count in the column page_total.
      const [page] = route.statements;
      rows = (await pool.query(page.sql, page.params)).rows;
      counted = rows.length ? Number(rows[0].page_total) : 0;
      for (const r of rows) delete r.page_total;
    } else {
      const [count, ...rest] = route.statements;
      const c = await pool.query(count.sql, count.params);
      counted = Number(Object.values(c.rows[0])[0]);
      for (const s of rest) rows = (await pool.query(s.sql, s.params)).rows;
    }
    // A capped count (a LIMIT COUNT_CAP + 1 subquery) over the cap answers the cap, not exact.
    const capped = route.countCap !== undefined && counted > route.countCap;
    const total = capped ? route.countCap : counted;
    const list = rows.map((r) => shape(r));
    if (route.reverse) list.reverse();
    send(res, 200, {
      code: '200',
      message: '操作成功',
      result: {
        list,
        total,
        pageNum: route.pageNum,
        pageSize: route.pageSize,
        ...(capped ? { totalExact: false } : {}),
      },
    });
  } catch {
    send(res, 500, { code: '500', message: '系统繁忙，请稍后重试', result: null });
  }
});
listen(server, pool);
