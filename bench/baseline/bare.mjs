// What the bare list handlers (list-calls.mjs, sql-list.mjs) share: a `pg.Pool` opened as the
// server opens its own, rows shaped as the server answers them, a JSON answer and the listening.
// Nothing of the server's code: the point of a baseline is the least a handler can do.
import { pg } from '../lib.mjs';

const INT8 = 20;
const INT8_ARRAY = 1016;
const INT4_ARRAY = 1007;
const DATE = 1082;

/** A pool like the server's: its size, idle timeout, session setting and value shapes. */
export function barePool() {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.PG_POOL_MAX || 10),
    idleTimeoutMillis: 30_000, // as the server's pool, so both keep the same connections open
    // The server's session setting (platform/db/db.ts), so both plan the statements alike.
    options: '-c random_page_cost=1.1',
    // The server's value shapes: int8 as number, dates as their text.
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
  return pool;
}

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

/** A row as the server answers it: camelCase keys, timestamps `YYYY-MM-DD HH:mm:ss` in Shanghai; `skip` left out. */
export function shape(row, skip) {
  const o = {};
  for (const k in row) {
    if (k === skip) continue;
    const v = row[k];
    o[toCamel(k)] = v instanceof Date ? fmt.format(v) : v;
  }
  return o;
}

export function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Serves on PORT with the server's keep-alive; SIGTERM or SIGINT closes the server, then the pool. */
export function listen(server, pool) {
  server.keepAliveTimeout = 72_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('baseline ready'));
  const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
