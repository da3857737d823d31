// Issue 40 §5: heavy reads (reports, exports, every-row lists) answered by a real PostgreSQL
// streaming replica (deploy/replica.sh: pg_basebackup of the server at 127.0.0.1:5432, started on
// port 5433), shown in /metrics; with the replica stopped they are answered by the primary.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlainRead } from '../src/platform/db/replica.ts';
import { factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp, until } from './helpers.ts';

const SCRIPT = path.resolve(__dirname, '../../../deploy/replica.sh');
const PORT = 5433;
const replica = (...cmd: string[]) => {
  const r = spawnSync(SCRIPT, cmd, {
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, REPLICA_PORT: String(PORT) },
  });
  if (r.status !== 0) throw new Error(`deploy/replica.sh ${cmd}: ${r.stderr || r.stdout}`);
};

describe('which statements a replica may answer', () => {
  it('plain reads only', () => {
    expect(isPlainRead('select * from sale_order where updated_at > $1')).toBe(true);
    expect(isPlainRead('  WITH x AS (SELECT 1) SELECT * FROM x')).toBe(true);
    expect(isPlainRead('select * from stock_balance for update')).toBe(false);
    expect(isPlainRead('WITH gone AS (DELETE FROM t RETURNING id) SELECT * FROM gone')).toBe(false);
    expect(isPlainRead("select nextval('doc_seq')")).toBe(false);
    expect(isPlainRead("select pg_notify('c', 'x')")).toBe(false);
    expect(isPlainRead('insert into export_job (title) values ($1)')).toBe(false);
    expect(isPlainRead('begin')).toBe(false);
  });
});

describe.skipIf(!PG_URL)('a PostgreSQL streaming replica for heavy reads', () => {
  let t: TestApp;
  let token: string;
  let dbName: string;
  const onReplica = async () => {
    const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${PORT}/postgres` });
    await c.connect();
    try {
      const r = await c.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'ringmes-replica'`,
        [dbName],
      );
      return r.rows[0].n as number;
    } finally {
      await c.end();
    }
  };
  const metric = async (name: string) => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text.split('\n').find((l) => l.startsWith(name));
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  };

  beforeAll(async () => {
    replica('start');
    t = await createTestApp({ databaseReplicaUrl: `postgres://postgres@127.0.0.1:${PORT}/postgres` });
    dbName = new URL(t.url as string).pathname.slice(1);
    token = await t.login();
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    replica('stop');
  });

  it('answers reports and every-row lists from the replica, writes and page reads from the primary', async () => {
    const f = factory(t, async () => token);
    const customer = await f.create('customer');
    // Caught up: the replica has replayed the customer.
    await until('the replica catches up', () => {
      const s = t.database.replicaStats?.();
      return s?.up && s.lagMs <= 1_000;
    });
    const before = t.database.replicaStats!().reads;
    const page = await t.call('GET', '/api/v1/customer/page', { token, query: { pageNum: 1 } });
    expect(page.status).toBe(200);
    expect(t.database.replicaStats!().reads).toBe(before);
    const all = await t.call('GET', '/api/v1/customer/page', { token, query: { pageNum: 0 } });
    expect(all.status).toBe(200);
    expect(all.body.result.list.map((c: any) => c.id)).toContain(customer.id);
    const exported = await t.call('GET', '/api/v1/customer/export', { token });
    expect(exported.status).toBe(200);
    const report = await t.call('GET', '/api/v1/production-report/productionTotal', { token });
    expect(report.status).toBe(200);
    expect(t.database.replicaStats!().reads).toBeGreaterThan(before);
    // The replica itself saw the server's connections to this database.
    expect(await onReplica()).toBeGreaterThan(0);
    expect(await metric('ringmes_db_replica_up')).toBe(1);
    expect(await metric('ringmes_db_replica_reads_total{target="replica"}')).toBeGreaterThan(0);
  }, 120_000);

  it('with the replica stopped, the same reads are answered by the primary', async () => {
    const fallbacks = t.database.replicaStats!().fallbacks;
    replica('stop', '--keep');
    const f = factory(t, async () => token);
    const late = await f.create('customer');
    const all = await t.call('GET', '/api/v1/customer/page', { token, query: { pageNum: 0 } });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.result.list.map((c: any) => c.id)).toContain(late.id);
    expect((await t.call('GET', '/api/v1/production-report/productionTotal', { token })).status).toBe(200);
    await until('the replica is seen down', () => t.database.replicaStats?.().up === false, 10_000);
    expect((await t.call('GET', '/api/v1/customer/page', { token, query: { pageNum: 0 } })).status).toBe(200);
    expect(t.database.replicaStats!().fallbacks).toBeGreaterThan(fallbacks);
    expect(await metric('ringmes_db_replica_up')).toBe(0);
    expect(await metric('ringmes_db_replica_reads_total{target="primary"}')).toBeGreaterThan(0);
  }, 120_000);
});
