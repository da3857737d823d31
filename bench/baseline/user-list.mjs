// The baseline of the auth-overhead benchmark: a bare `node:http` + `pg.Pool` handler running the
// statement the server runs for `GET /api/v1/user/list?pageNum=1&pageSize=20` (user.service.ts
// `userPage`, captured from the PostgreSQL log by the scenario: env STATEMENT, a JSON file
// `{ sql, params }`; the page and its total in one statement) and answering the same JSON body: the
// envelope, camelCase keys, bigint as number, dates as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai.
// No authentication, no permission check, no validation, no framework. Env: DATABASE_URL, PORT,
// PG_POOL_MAX, STATEMENT.
import fs from 'node:fs';
import http from 'node:http';
import { pg } from '../lib.mjs';

/** The server's statement for the call and its parameters (the scenario captures them). */
const STATEMENT = JSON.parse(fs.readFileSync(process.env.STATEMENT, 'utf8'));

const INT8 = 20;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.PG_POOL_MAX || 10),
  idleTimeoutMillis: 30_000, // as the server's pool, so both keep the same connections open
  // The server's session setting (platform/db/db.ts), so both plan the statements alike.
  options: '-c random_page_cost=1.1',
  types: {
    getTypeParser: (oid, format) => (oid === INT8 ? (v) => Number(v) : pg.types.getTypeParser(oid, format)),
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

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname !== '/api/v1/user/list')
    return send(res, 404, { code: '404', message: 'not found', result: null });
  const pageNum = Number(url.searchParams.get('pageNum') ?? 1) || 1;
  const pageSize = Number(url.searchParams.get('pageSize') ?? 20) || 20;
  try {
    // A named statement, as the server's (its paging parameters are the captured call's).
    const r = await pool.query({ name: 'user_list', text: STATEMENT.sql, values: STATEMENT.params });
    const total = r.rows.length ? r.rows[0].page_total : 0;
    const list = r.rows.map((row) => {
      const o = {};
      for (const k in row) {
        if (k === 'page_total') continue;
        const v = row[k];
        o[toCamel(k)] = v instanceof Date ? fmt.format(v) : v;
      }
      return o;
    });
    send(res, 200, { code: '200', message: '操作成功', result: { list, total, pageNum, pageSize } });
  } catch {
    send(res, 500, { code: '500', message: '系统繁忙，请稍后重试', result: null });
  }
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('baseline ready'));

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
