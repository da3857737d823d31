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
import { pg } from '../lib.mjs';

const routes = JSON.parse(fs.readFileSync(process.env.ROUTES, 'utf8'));
const INT8 = 20;
const INT8_ARRAY = 1016;
const INT4_ARRAY = 1007;
const DATE = 1082;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.PG_POOL_MAX || 10),
  idleTimeoutMillis: 30_000,
  // The server's session setting (platform/db/db.ts), so both plan the statements alike.
  options: '-c random_page_cost=1.1',
  types: {
    getTypeParser: (oid, format) => {
      if (oid === INT8) return (v) => Number(v);
      if (oid === INT8_ARRAY) return pg.types.getTypeParser(INT4_ARRAY, format);
      if (oid === DATE) return (v) => v;
      return pg.types.getTypeParser(oid, format);
    },
  },
});
pool.on('error', () => {});

const fmt = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const camel = new Map();
const toCamel = (k) => {
  let c = camel.get(k);
  if (c === undefined) {
    c = k.replace(/_([a-z0-9])/g, (_, x) => x.toUpperCase());
    camel.set(k, c);
  }
  return c;
};
const shape = (row) => {
  const o = {};
  for (const k in row) {
    const v = row[k];
    o[toCamel(k)] = v instanceof Date ? fmt.format(v) : v;
  }
  return o;
};

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

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
    const list = rows.map(shape);
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
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('baseline ready'));

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
