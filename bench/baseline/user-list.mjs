// The baseline of the auth-overhead benchmark: a bare `node:http` + `pg.Pool` handler running the
// same SQL as `GET /api/v1/user/list?pageNum=…&pageSize=…` (as Kysely compiles user.service.ts
// `userQuery` + paging.ts `paginate` with the default sort) and answering the same JSON body: the
// envelope, camelCase keys, bigint as number, dates as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai.
// No authentication, no permission check, no validation, no framework. Env: DATABASE_URL, PORT,
// PG_POOL_MAX.
import http from 'node:http';
import { pg } from '../lib.mjs';

export const USER_LIST_SQL =
  'select "u"."id" as "user_id", "u"."user_name", "u"."first_name", "u"."phone", "u"."email", "u"."avatar", ' +
  '"u"."introduction", "u"."status", "u"."dept_id", "d"."dept_name", "u"."created_at", "u"."updated_at", ' +
  '"u"."version", coalesce((SELECT array_agg(ur.role_id::int ORDER BY ur.role_id) FROM user_role ur ' +
  "WHERE ur.user_id = u.id), '{}') as \"role_ids\", coalesce((SELECT string_agg(r.role_name, '、' " +
  'ORDER BY r.order_num) FROM user_role ur JOIN role r ON r.id = ur.role_id WHERE ur.user_id = u.id), ' +
  '\'\') as "role_names", count(*) over () as "page_total" from "app_user" as "u" left join "dept" ' +
  'as "d" on "d"."id" = "u"."dept_id" order by "u"."id" asc limit $1 offset $2';

const INT8 = 20;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.PG_POOL_MAX || 10),
  idleTimeoutMillis: 30_000, // as the server's pool, so both keep the same connections open
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
    const r = await pool.query(USER_LIST_SQL, [pageSize, (pageNum - 1) * pageSize]);
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
