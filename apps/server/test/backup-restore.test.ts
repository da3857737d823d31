// Issue 40 §4: a backup taken while the server runs holds the database, the attachments, the
// export files and the secret key; restored onto a fresh data directory or an empty PostgreSQL
// database it answers the same documents and files. And the embedded database moves to a
// PostgreSQL server with every table's count and row checksum equal.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { openArchive, restoreBackup, writeBackup } from '../src/platform/ops/backup.ts';
import { copyDatabase } from '../src/platform/ops/move.ts';
import { seed } from '../src/seed/index.ts';
import { factory } from './factories.ts';
import { ADMIN_PASSWORD, createTestApp, PG_URL, type TestApp } from './helpers.ts';

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `ringmes-${p}-`));
const dirs: string[] = [];
const made: string[] = [];
let t: TestApp;
let token: string;

beforeAll(async () => {
  const dataDir = tmp('bk-data');
  dirs.push(dataDir);
  t = await createTestApp({ dataDir });
  token = await t.login();
});
afterAll(async () => {
  await t.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  if (PG_URL && made.length) {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    for (const name of made) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  }
});

const PDF = Buffer.from('%PDF-1.4\n% 备份测试\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

async function upload(app: TestApp['app'], orderId: number, content: Buffer) {
  const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="合同.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/attachment/upload/sale-order/${orderId}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
}

/** A sales order with an attachment, an export file of admin's and the secret key: what a backup must keep. */
async function documents(app: TestApp['app'], call: TestApp['call'], config: Config) {
  const f = factory({ call } as TestApp, async () => token);
  const c = await f.create('customer');
  const m = await f.create('material-info', { salePrice: '12' });
  const order = await call('POST', '/api/v1/sale-order/add', {
    token,
    body: {
      customerId: c.id,
      orderDate: '2026-10-08',
      deliveryDate: '2026-11-20',
      lines: [{ materialId: m.id, quantity: 10 }],
    },
  });
  expect(order.status, JSON.stringify(order.body)).toBe(200);
  const file = await upload(app, order.body.result.id, PDF);
  const me = await call('GET', `/api/v1/sso/getUserByToken?token=${token}`);
  const exportName = `${crypto.randomUUID()}_客户.xlsx`;
  fs.mkdirSync(path.join(config.exportDir, String(me.body.result.userId)), { recursive: true });
  fs.writeFileSync(path.join(config.exportDir, String(me.body.result.userId), exportName), 'xlsx-bytes');
  const key = crypto.randomBytes(32);
  fs.writeFileSync(path.join(config.dataDir, 'api-secret.key'), key);
  return { order: order.body.result, attachmentId: file.id as number, exportName, key };
}

async function emptyPgDatabase(): Promise<string> {
  const name = `ringmes_test_restore_${crypto.randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  made.push(name);
  const url = new URL(PG_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function serve(database: Database, config: Config) {
  const app = await buildApp(database, config, { logger: false });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/sso/login',
    payload: { userName: 'admin', passWord: ADMIN_PASSWORD, source: 'mes' },
  });
  return { app, token: login.json().result.token as string };
}

describe('backup and restore', () => {
  it('restores onto a fresh data directory or database: the order, its attachment, the export and the key', {
    timeout: 300_000,
  }, async () => {
    const kept = await documents(t.app, t.call, t.config);
    const out = path.join(tmp('bk-out'), 'backup.tar.gz');
    dirs.push(path.dirname(out));
    const b = await writeBackup(t.database, { ...t.config, databaseUrl: t.url }, out);
    expect(b.bytes).toBeGreaterThan(0);
    expect(b.manifest.db).toBe(t.database.kind);
    expect(b.manifest.tables.sale_order).toBeGreaterThanOrEqual(1);
    expect(b.manifest.secretKey).toBe('file');
    expect(Object.keys(b.manifest.files).some((f) => f.startsWith('attachments/'))).toBe(true);
    const { dir } = await openArchive(out);
    fs.rmSync(dir, { recursive: true, force: true });

    const home = tmp('bk-restored');
    dirs.push(home);
    const target: Config = {
      ...t.config,
      dataDir: home,
      attachmentDir: path.join(home, 'attachments'),
      exportDir: path.join(home, 'exports'),
      databaseUrl: PG_URL ? await emptyPgDatabase() : undefined,
    };
    const r = await restoreBackup(out, target);
    expect(r.files).toBe(Object.keys(b.manifest.files).length);
    expect(r.rows).toBe(Object.values(b.manifest.tables).reduce((a, n) => a + n, 0));
    // A second restore onto the same place is refused without --force.
    await expect(restoreBackup(out, target)).rejects.toThrow(/--force/);

    const database = await openDatabase({
      databaseUrl: target.databaseUrl,
      dataDir: target.dataDir,
      poolMax: 2,
    });
    try {
      const s = await serve(database, target);
      const info = await s.app.inject({
        method: 'GET',
        url: `/api/v1/sale-order/info/${kept.order.id}`,
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(info.statusCode).toBe(200);
      expect(info.json().result.docNo).toBe(kept.order.docNo);
      const file = await s.app.inject({
        method: 'GET',
        url: `/api/v1/attachment/download/${kept.attachmentId}`,
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PDF)).toBe(true);
      const xlsx = await s.app.inject({
        method: 'GET',
        url: `/common/download?fileName=${encodeURIComponent(kept.exportName)}`,
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.body).toBe('xlsx-bytes');
      expect(fs.readFileSync(path.join(home, 'api-secret.key')).equals(kept.key)).toBe(true);
      await s.app.close();
    } finally {
      await database.close();
    }
  });
});

describe.runIf(PG_URL)('migrate-to-postgres', () => {
  it('copies an embedded database into an empty PostgreSQL database with 0 differences', {
    timeout: 400_000,
  }, async () => {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      await migrate(lite.db);
      await seed(lite.db, { seed: 'minimal', adminPassword: ADMIN_PASSWORD });
      const config: Config = { ...t.config, dataDir: tmp('mv-data') };
      dirs.push(config.dataDir);
      const s = await serve(lite, config);
      token = s.token;
      const call: TestApp['call'] = async (method, url, opts = {}) => {
        const res = await s.app.inject({
          method: method as 'GET',
          url,
          headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
          payload: opts.body as object,
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers };
      };
      const kept = await documents(s.app, call, config);
      await s.app.close();

      const url = await emptyPgDatabase();
      const target = await openDatabase({ databaseUrl: url, poolMax: 2 });
      try {
        const r = await copyDatabase(lite.db, target.db);
        expect(r.differences).toEqual([]);
        expect(r.rows).toBeGreaterThan(100);
        // A second copy into the same database is refused.
        await expect(copyDatabase(lite.db, target.db)).rejects.toThrow(/已有 RingMES 数据/);
        const moved = await serve(target, { ...config, databaseUrl: url });
        const info = await moved.app.inject({
          method: 'GET',
          url: `/api/v1/sale-order/info/${kept.order.id}`,
          headers: { authorization: `Bearer ${moved.token}` },
        });
        expect(info.json().result.docNo).toBe(kept.order.docNo);
        // New rows continue after the copied keys.
        const next = await moved.app.inject({
          method: 'POST',
          url: '/api/v1/sale-order/add',
          headers: { authorization: `Bearer ${moved.token}` },
          payload: {
            customerId: kept.order.customerId,
            orderDate: '2026-10-09',
            deliveryDate: '2026-11-21',
            lines: [{ materialId: kept.order.lines[0].materialId, quantity: 1 }],
          },
        });
        expect(next.statusCode, next.body).toBe(200);
        expect(next.json().result.id).toBeGreaterThan(kept.order.id);
        await moved.app.close();
      } finally {
        await target.close();
      }
    } finally {
      await lite.close();
    }
  });
});
