// Issue 40 §2–3: what an operator watches and what the server cleans up by itself — the access
// log, /api/health and /api/ready, /metrics and its guard, and housekeeping in bounded batches.
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, loadConfig } from '../src/config.ts';
import { housekeep } from '../src/platform/ops/housekeeping.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let log = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (c) => {
    log += c.toString();
  });
  t = await createTestApp({}, 'minimal', stream);
  token = await t.login();
});
afterAll(() => t.close());

const lines = () =>
  log
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('the access log', () => {
  it('writes one JSON line per request: method, route, status, ms, user, request id; no token', async () => {
    const r = await t.call('GET', '/api/v1/customer/page', { token, query: { pageSize: 5 } });
    expect(r.status).toBe(200);
    const id = String(r.headers['x-request-id']);
    // A public route whose query carries the token.
    expect((await t.call('GET', `/api/v1/sso/getUserByToken?token=${token}`)).status).toBe(200);
    await t.call('GET', '/api/v1/customer/info/999999', { token });
    await new Promise((res) => setTimeout(res, 20));
    const mine = lines().filter((l) => l.msg === 'access' && l.reqId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/customer/page',
      status: 200,
      userId: expect.any(Number),
    });
    expect(mine[0].ms).toBeGreaterThanOrEqual(0);
    const miss = lines().find((l) => l.msg === 'access' && l.url === '/api/v1/customer/info/999999');
    expect(miss).toMatchObject({ route: '/api/v1/customer/info/:id', status: 404 });
    const sso = lines().find((l) => l.msg === 'access' && l.route === '/api/v1/sso/getUserByToken');
    expect(sso.url).toBe('/api/v1/sso/getUserByToken?token=[REDACTED]');
    expect(log).not.toContain(token);
  });
});

describe('health and readiness', () => {
  it('/api/ready answers 200 with no migration pending; /api/health reads the database', async () => {
    const ready = await t.call('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.result).toMatchObject({ status: 'ok', migrationsPending: 0, db: t.database.kind });
    expect(ready.body.result.dbMs).toBeGreaterThanOrEqual(0);
  });

  it('answers 503 when the database does not answer', async () => {
    const real = t.database.db;
    // A database that fails every statement, as a stopped server would.
    (t.database as { db: unknown }).db = {
      getExecutor: () => {
        throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
      },
    };
    try {
      const r = await t.call('GET', '/api/health');
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ code: '503', message: '数据库不可用', result: null });
      expect((await t.call('GET', '/api/ready')).status).toBe(503);
    } finally {
      (t.database as { db: unknown }).db = real;
    }
    expect((await t.call('GET', '/api/health')).status).toBe(200);
  });
});

describe('/metrics', () => {
  it('answers the Prometheus text to loopback: request histograms by route and status, event-loop lag, release', async () => {
    await t.call('GET', '/api/v1/customer/page', { token });
    const r = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toMatch(
      /ringmes_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/customer\/page",status="200"\} \d+/,
    );
    expect(r.body).toMatch(/ringmes_http_request_duration_seconds_bucket\{le="0.1",method="GET"/);
    expect(r.body).toMatch(/nodejs_eventloop_lag_p99_seconds \d/);
    expect(r.body).toMatch(
      /ringmes_build_info\{version="\d+\.\d+\.\d+",commit="[^"]+",db="(pglite|postgres)"\} 1/,
    );
    if (t.database.kind === 'postgres') expect(r.body).toMatch(/ringmes_db_pool_max \d+/);
    expect(r.body).not.toContain(token);
  });

  it('refuses other addresses, and a forwarded request when no proxy is trusted', async () => {
    const far = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(far.statusCode).toBe(403);
    expect(far.json().code).toBe('403');
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
  });

  it('with METRICS_TOKEN, asks for the bearer token from any address', async () => {
    const t2 = await createTestApp({ metrics: { token: 'scrape-secret-1', allow: [] } });
    try {
      const no = await t2.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(no.statusCode).toBe(403);
      const yes = await t2.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: 'Bearer scrape-secret-1' },
      });
      expect(yes.statusCode).toBe(200);
      expect(yes.body).toContain('ringmes_build_info');
    } finally {
      await t2.close();
    }
  });
});

describe('configuration', () => {
  it('seeds the demo under npm start on either database and the minimal seed in production, unless SEED asks', () => {
    expect(defaultSeed({ seed: undefined, databaseUrl: undefined }, {})).toBe('demo');
    expect(defaultSeed({ seed: undefined, databaseUrl: 'postgres://x/y' }, {})).toBe('demo');
    expect(defaultSeed({ seed: undefined, databaseUrl: 'postgres://x/y' }, { NODE_ENV: 'production' })).toBe(
      'minimal',
    );
    expect(defaultSeed({ seed: undefined, databaseUrl: undefined }, { NODE_ENV: 'production' })).toBe(
      'minimal',
    );
    expect(defaultSeed({ seed: 'demo', databaseUrl: 'postgres://x/y' }, { NODE_ENV: 'production' })).toBe(
      'demo',
    );
  });

  it('reads the retention and metrics settings, refusing a bad address list', () => {
    const c = loadConfig({ RETAIN_AUDIT_DAYS: '0', HOUSEKEEPING_BATCH: '100', METRICS_ALLOW: '10.0.0.0/8' });
    expect(c.retention).toMatchObject({ auditDays: 0, batch: 100, sessionDays: 30, readMessageDays: 180 });
    expect(c.metrics.allow).toEqual(['10.0.0.0/8']);
    expect(() => loadConfig({ METRICS_ALLOW: 'not-an-address' })).toThrow(/METRICS_ALLOW/);
  });
});

describe('housekeeping', () => {
  const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

  it('deletes what outlived its retention in batches, and keeps the rest', async () => {
    const db = t.database.db;
    const admin = await db
      .selectFrom('appUser')
      .select('id')
      .where('userName', '=', 'admin')
      .executeTakeFirstOrThrow();
    const before = async () => ({
      sessions: Number(
        (await sql<{ n: number }>`SELECT count(*) AS n FROM user_session`.execute(db)).rows[0].n,
      ),
    });
    const live = (await before()).sessions;
    // 5 of each old, 1 of each recent.
    for (let i = 0; i < 5; i++) {
      await sql`INSERT INTO user_session (token_hash, user_id, created_at, last_seen_at, expires_at)
        VALUES (${Buffer.from(`old${i}`)}, ${admin.id}, ${daysAgo(60)}, ${daysAgo(60)}, ${daysAgo(59)})`.execute(
        db,
      );
      await sql`INSERT INTO login_attempt (user_name, ip, success, at) VALUES ('x', '1.1.1.1', false, ${daysAgo(100)})`.execute(
        db,
      );
      await sql`INSERT INTO idempotency_key (key, scope, status_code, response, created_at)
        VALUES (${`k${i}`}, 'test', 200, '{}', ${daysAgo(10)})`.execute(db);
      await sql`INSERT INTO message (user_id, title, read_at, created_at)
        VALUES (${admin.id}, 'old read', ${daysAgo(200)}, ${daysAgo(201)})`.execute(db);
      await sql`INSERT INTO message (user_id, title, created_at) VALUES (${admin.id}, 'old unread', ${daysAgo(300)})`.execute(
        db,
      );
      await sql`INSERT INTO audit_log (entity, action, at) VALUES ('test', 'old', ${daysAgo(1200)})`.execute(
        db,
      );
    }
    await sql`INSERT INTO user_session (token_hash, user_id, expires_at, revoked_at)
      VALUES (${Buffer.from('revoked-now')}, ${admin.id}, ${daysAgo(-1)}, now())`.execute(db);
    await sql`INSERT INTO login_attempt (user_name, ip, success) VALUES ('x', '1.1.1.1', false)`.execute(db);
    await sql`INSERT INTO idempotency_key (key, scope, status_code, response) VALUES ('new', 'test', 200, '{}')`.execute(
      db,
    );
    await sql`INSERT INTO message (user_id, title, read_at) VALUES (${admin.id}, 'new read', now())`.execute(
      db,
    );
    await sql`INSERT INTO audit_log (entity, action) VALUES ('test', 'new')`.execute(db);

    const counts = await housekeep(db, { ...t.config.retention, batch: 2 }, t.config.exportDir);
    expect(counts).toMatchObject({
      sessions: 5,
      loginAttempts: 5,
      idempotencyKeys: 5,
      readMessages: 5,
      auditLog: 5,
    });
    const count = async (q: ReturnType<typeof sql>) =>
      Number(((await q.execute(db)).rows[0] as { n: number }).n);
    expect(await count(sql`SELECT count(*) AS n FROM user_session`)).toBe(live + 1);
    expect(await count(sql`SELECT count(*) AS n FROM login_attempt WHERE user_name = 'x'`)).toBe(1);
    expect(await count(sql`SELECT count(*) AS n FROM idempotency_key WHERE scope = 'test'`)).toBe(1);
    expect(await count(sql`SELECT count(*) AS n FROM message WHERE title = 'old unread'`)).toBe(5);
    expect(await count(sql`SELECT count(*) AS n FROM message WHERE title LIKE '%read'`)).toBe(6);
    expect(await count(sql`SELECT count(*) AS n FROM audit_log WHERE entity = 'test'`)).toBe(1);
    // Retention 0 keeps for ever.
    await sql`INSERT INTO audit_log (entity, action, at) VALUES ('test', 'old', ${daysAgo(5000)})`.execute(
      db,
    );
    const kept = await housekeep(db, { ...t.config.retention, auditDays: 0 }, t.config.exportDir);
    expect(kept?.auditLog).toBeUndefined();
    expect(await count(sql`SELECT count(*) AS n FROM audit_log WHERE entity = 'test'`)).toBe(2);
  });

  it.runIf(PG_URL)('runs in one process at a time (another process holding the lock skips)', async () => {
    const other = await createTestApp();
    try {
      const db = t.database.db;
      const held = await db.connection().execute(async (conn) => {
        await sql`SELECT pg_advisory_lock(724101)`.execute(conn);
        try {
          return await housekeep(db, t.config.retention, t.config.exportDir);
        } finally {
          await sql`SELECT pg_advisory_unlock(724101)`.execute(conn);
        }
      });
      expect(held).toBeNull();
      expect(await housekeep(db, t.config.retention, t.config.exportDir)).not.toBeNull();
    } finally {
      await other.close();
    }
  });
});
