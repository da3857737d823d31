import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { seed } from '../src/seed/index.ts';
import { contractChecker } from './contract-check.ts';

export const ADMIN_PASSWORD = 'admin123';

/** A PostgreSQL server URL when the suite runs against one (CI's second pass). */
export const PG_URL = process.env.TEST_DATABASE_URL;

let template: Promise<Blob> | undefined;
/**
 * A migrated in-memory PGlite as a tarball, made once per test worker: starting a database from
 * it skips initdb and the migrations (about 5 s of each test file's set-up on PGlite).
 */
function migratedPglite(): Promise<Blob> {
  template ??= (async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await migrate(database.db);
      return await (database.dumpDataDir as () => Promise<Blob>)();
    } finally {
      await database.close();
    }
  })();
  return template;
}

/** This run's databases share a prefix, so the global teardown drops whatever a crash left. */
const testDatabaseName = () =>
  `ringmes_test_${process.env.RINGMES_TEST_RUN ?? 'x'}_${crypto.randomBytes(5).toString('hex')}`;

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

let pgTemplate: Promise<string> | undefined;
/**
 * A migrated database on the PostgreSQL server, made once per test worker and copied by
 * `CREATE DATABASE … TEMPLATE` for each test file instead of running the migrations again.
 * Nothing stays connected to it (a template cannot be copied while in use); the global
 * teardown drops it with the run's other databases.
 */
function migratedPgTemplate(): Promise<string> {
  pgTemplate ??= (async () => {
    const name = testDatabaseName();
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL as string);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolMax: 1 });
    try {
      await migrate(database.db);
    } finally {
      await database.close();
    }
    return name;
  })();
  return pgTemplate;
}

/** A fresh, migrated database: an in-memory PGlite from the tarball, or a copy of the migrated template on the PostgreSQL server. */
export async function freshDatabase(
  opts: { replicaUrl?: string; replicaMaxLagMs?: number } = {},
): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  if (!PG_URL) {
    const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedPglite() });
    return { database, drop: () => database.close() };
  }
  const name = testDatabaseName();
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${await migratedPgTemplate()}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  // A replica (read-replica.test) is the same database name on the standby server.
  const replica = opts.replicaUrl ? new URL(opts.replicaUrl) : undefined;
  if (replica) replica.pathname = `/${name}`;
  const database = await openDatabase({
    databaseUrl: url.toString(),
    poolMax: 20,
    replicaUrl: replica?.toString(),
    replicaMaxLagMs: opts.replicaMaxLagMs,
  });
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let cheap: Promise<string> | undefined;
/** `secret123` hashed with Argon2id at a test-only cost (the verify reads the cost from the hash). */
const cheapHash = () =>
  (cheap ??= hash('secret123', { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 }));

export interface Answer<T = any> {
  status: number;
  body: { code: string; message: string; result: T; errors?: { field: string; message: string }[] };
  headers: Record<string, unknown>;
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  /** The PostgreSQL database's URL (TEST_DATABASE_URL runs), for a second app on the same data. */
  url?: string;
  config: Config;
  call<T = any>(
    method: string,
    url: string,
    opts?: {
      token?: string;
      body?: unknown;
      query?: Record<string, unknown>;
      headers?: Record<string, string>;
      raw?: string;
    },
  ): Promise<Answer<T>>;
  login(userName?: string, passWord?: string): Promise<string>;
  /** Creates a user holding a new role that grants exactly these permissions (menu buttons created as needed). */
  userWith(
    permissions: string[],
    userName?: string,
  ): Promise<{ token: string; userId: number; roleId: number }>;
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: Partial<Config> = {},
  seedMode: 'minimal' | 'demo' = 'minimal',
  logStream?: NodeJS.WritableStream,
): Promise<TestApp> {
  const { database, drop, url } = await freshDatabase({
    replicaUrl: overrides.databaseReplicaUrl,
    replicaMaxLagMs: overrides.replicaMaxLagMs,
  });
  const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-export-'));
  const config: Config = {
    ...loadConfig({}),
    exportDir,
    attachmentDir: fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-files-')),
    webDist: path.join(os.tmpdir(), 'ringmes-no-web'),
    login: { maxFailsPerUser: 1000, maxFailsPerIp: 1000, windowMinutes: 15 },
    ...overrides,
  };
  await migrate(database.db);
  await seed(database.db, {
    seed: seedMode,
    adminPassword: ADMIN_PASSWORD,
    attachmentDir: config.attachmentDir,
  });
  const app = await buildApp(database, config, { logger: !!process.env.TEST_LOG || !!logStream, logStream });
  await app.ready();
  const contract = contractChecker(app.ringmesRoutes);

  const call: TestApp['call'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await app.inject({ method: method as any, url, query: opts.query as any, headers, payload });
    let body: any;
    try {
      body = res.json();
    } catch {
      body = { raw: res.body };
    }
    contract.check(method, url, res.statusCode, body, res.headers['content-type']);
    return { status: res.statusCode, body, headers: res.headers };
  };

  const login = async (userName = 'admin', passWord = ADMIN_PASSWORD) => {
    const r = await call('POST', '/api/v1/sso/login', { body: { userName, passWord, source: 'mes' } });
    if (r.status !== 200) throw new Error(`login ${userName} failed: ${JSON.stringify(r.body)}`);
    return r.body.result.token as string;
  };

  let adminToken: string | undefined;
  const userWith: TestApp['userWith'] = async (permissions, userName) => {
    adminToken ??= await login();
    const db = database.db;
    const menuIds: number[] = [];
    for (const p of permissions) {
      let m = await db.selectFrom('menu').select('id').where('menuPermissions', '=', p).executeTakeFirst();
      m ??= await db
        .insertInto('menu')
        .values({ menuName: p, nodeType: '3', menuPermissions: p })
        .returning('id')
        .executeTakeFirstOrThrow();
      menuIds.push(m.id);
    }
    const key = `r${crypto.randomBytes(4).toString('hex')}`;
    const role = await call('POST', '/api/v1/role/add', {
      token: adminToken,
      body: { roleName: key, roleKey: key, menuIds },
    });
    if (role.status !== 200) throw new Error(JSON.stringify(role.body));
    const name = userName ?? `u${crypto.randomBytes(4).toString('hex')}`;
    // Straight into the tables with a cheap hash: a suite makes hundreds of these users, and the
    // real Argon2 cost (auth.test.ts checks it) would spend a minute hashing.
    const user = await db
      .insertInto('appUser')
      .values({ userName: name, firstName: '测试用户', passwordHash: await cheapHash() })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (permissions.length)
      await db.insertInto('userRole').values({ userId: user.id, roleId: role.body.result.id }).execute();
    return {
      token: await login(name, 'secret123'),
      userId: user.id,
      roleId: role.body.result.id,
    };
  };

  return {
    app,
    database,
    url,
    config,
    call,
    login,
    userWith,
    async close() {
      await app.close();
      await drop();
      fs.rmSync(exportDir, { recursive: true, force: true });
      if (contract.breaches.length)
        throw new Error(
          `${contract.breaches.length} answers break the OpenAPI document:\n${contract.breaches.slice(0, 5).join('\n')}`,
        );
    },
  };
}

/** Downloads an export through `/common/download` as `token`'s user and opens it. */
export async function downloadWorkbook(t: TestApp, token: string, fileName: string) {
  const { default: ExcelJS } = await import('exceljs');
  const r = await t.app.inject({
    method: 'GET',
    url: '/common/download',
    query: { fileName },
    // As a browser asks: a download must reach it as the file itself, never re-encoded.
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br, zstd' },
  });
  if (r.statusCode !== 200) throw new Error(`download ${fileName}: ${r.statusCode} ${r.body}`);
  if (r.headers['content-encoding'])
    throw new Error(`download ${fileName} sent ${r.headers['content-encoding']}`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as any);
  return wb;
}

/** Polls `fn` every 100 ms until it answers something truthy (answered), or fails after `ms`. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 30_000,
) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A free TCP port on the loopback, for a server a test starts in its own process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
