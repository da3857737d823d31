import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { percentSetting } from '../src/modules/orders/order-lines.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { seed } from '../src/seed/index.ts';
import { ADMIN_PASSWORD, createTestApp, freePort, freshDatabase, PG_URL, type TestApp } from './helpers.ts';

const PNG_1PX =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const put = (url: string, body: unknown, as = token) =>
  t.call('PUT', `/api/v1/sysSetting/${url}`, { token: as, body });
const get = (url: string, as = token) => t.call('GET', `/api/v1/sysSetting/${url}`, { token: as });

describe('system settings: validation', () => {
  it('refuses bad values with Chinese field errors', async () => {
    const cases: [string, unknown, string][] = [
      ['company', { companyName: ' ', logo: null }, 'companyName'],
      ['company', { companyName: '甲'.repeat(61), logo: null }, 'companyName'],
      ['company', { companyName: '公司', logo: 'data:text/html;base64,PGI+' }, 'logo'],
      ['company', { companyName: '公司', logo: `data:image/png;base64,${'A'.repeat(300_000)}` }, 'logo'],
      ['session', { idleMinutes: 2, absoluteHours: 24 }, 'idleMinutes'],
      ['session', { idleMinutes: 600, absoluteHours: 8 }, 'idleMinutes'],
      ['session', { idleMinutes: 30, absoluteHours: 1.5 }, 'absoluteHours'],
      [
        'allowances',
        { overShipPercent: 101, overIssuePercent: 0, overDispatchPercent: 0, overReceivePercent: 0 },
        'overShipPercent',
      ],
      [
        'allowances',
        { overShipPercent: '1.234', overIssuePercent: 0, overDispatchPercent: 0, overReceivePercent: 0 },
        'overShipPercent',
      ],
      [
        'allowances',
        { overShipPercent: -1, overIssuePercent: 0, overDispatchPercent: 0, overReceivePercent: 0 },
        'overShipPercent',
      ],
      [
        'allowances',
        { overShipPercent: 1, overIssuePercent: 0, overDispatchPercent: 0 },
        'overReceivePercent',
      ],
      ['inspection', { shipmentInspectionRequired: 'yes' }, 'shipmentInspectionRequired'],
      ['inspection', { shipmentInspectionRequired: true, extra: 1 }, 'extra'],
    ];
    for (const [group, body, field] of cases) {
      const r = await put(group, body);
      expect(r.status, `${group} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
      expect(r.body.errors?.map((e) => e.field)).toContain(field);
    }
  });

  it('needs system:setting:edit to change and a session to read', async () => {
    const reader = await t.userWith(['system:setting:list']);
    expect((await get('allowances', reader.token)).status).toBe(200);
    expect((await put('inspection', { shipmentInspectionRequired: true }, reader.token)).status).toBe(403);
    expect((await t.call('GET', '/api/v1/sysSetting/allowances')).status).toBe(401);
    // The login page's brand is public.
    expect((await t.call('GET', '/api/v1/sysSetting/brand')).status).toBe(200);
  });

  it('lists the document-number prefixes', async () => {
    const r = await get('docPrefixes');
    expect(r.body.result).toContainEqual(
      expect.objectContaining({ docType: '销售订单', defaultPrefix: 'XS', prefix: 'XS', pattern: 'daily' }),
    );
  });
});

describe('system settings: audit and effect', () => {
  it('stores each group, answers it normalised and audits before and after', async () => {
    const r = await put('allowances', {
      overShipPercent: '5.50',
      overIssuePercent: 3,
      overDispatchPercent: '0',
      overReceivePercent: 10,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toEqual({
      overShipPercent: '5.5',
      overIssuePercent: '3',
      overDispatchPercent: '0',
      overReceivePercent: '10',
    });
    // The readers of the allowances see them at once.
    expect((await percentSetting(t.database.db, 'sales.overShipPercent')).toString()).toBe('5.5');
    expect((await percentSetting(t.database.db, 'production.overIssuePercent')).toString()).toBe('3');
    expect((await percentSetting(t.database.db, 'purchase.overReceivePercent')).toString()).toBe('10');
    const row = await t.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('entity', '=', 'setting')
      .where('entityId', '=', 'allowances')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.userName).toBe('admin');
    expect(row.beforeData).toMatchObject({ overShipPercent: '0' });
    expect(row.afterData).toMatchObject({ overShipPercent: '5.5' });

    const inspection = await put('inspection', { shipmentInspectionRequired: true });
    expect(inspection.body.result).toEqual({ shipmentInspectionRequired: true });
    expect((await get('inspection')).body.result.shipmentInspectionRequired).toBe(true);
  });

  it('keeps the company name and logo for the login page, auditing the logo as a digest', async () => {
    const r = await put('company', { companyName: '  洛阳精密轴承有限公司 ', logo: PNG_1PX });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const brand = await t.call('GET', '/api/v1/sysSetting/brand');
    expect(brand.body.result).toEqual({ companyName: '洛阳精密轴承有限公司', logo: PNG_1PX });
    const row = await t.database.db
      .selectFrom('auditLog')
      .select(['afterData'])
      .where('entity', '=', 'setting')
      .where('entityId', '=', 'company')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row.afterData)).not.toContain('base64');
    expect((row.afterData as any).logo).toContain('sha256');
    const cleared = await put('company', { companyName: '洛阳精密轴承有限公司', logo: null });
    expect(cleared.body.result.logo).toBeNull();
  });

  it('applies session timeouts to open sessions without a restart', async () => {
    expect((await get('session')).body.result).toEqual({ idleMinutes: 120, absoluteHours: 24 });
    const r = await put('session', { idleMinutes: 30, absoluteHours: 2 });
    expect(r.status).toBe(200);
    // A session idle for 40 minutes ends; one signed in 3 hours ago ends.
    const idle = await t.login();
    await sql`UPDATE user_session SET last_seen_at = now() - interval '40 minutes'
               WHERE token_hash = sha256(convert_to(${idle}, 'UTF8'))`.execute(t.database.db);
    expect((await get('session', idle)).status).toBe(401);
    const old = await t.login();
    await sql`UPDATE user_session SET created_at = now() - interval '3 hours'
               WHERE token_hash = sha256(convert_to(${old}, 'UTF8'))`.execute(t.database.db);
    expect((await get('session', old)).status).toBe(401);
    // New sessions expire by the setting.
    const fresh = await t.call('POST', '/api/v1/sso/login', {
      body: { userName: 'admin', passWord: ADMIN_PASSWORD, source: 'mes' },
    });
    expect(String(fresh.headers['set-cookie'])).toContain(`Max-Age=${2 * 3600}`);
    await put('session', { idleMinutes: 120, absoluteHours: 24 });
  });
});

/**
 * A second server: its own OS process (`src/main.ts` under tsx), its own pool and its own
 * module state (session cache included), on the same PostgreSQL database.
 */
async function serverProcess(databaseUrl: string) {
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '../../..');
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(os.tmpdir(), 'ringmes-no-web'),
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-second-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the second server exited: ${output}`);
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 600) throw new Error(`the second server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    async call(method: string, url: string, tok?: string, body?: unknown) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(tok ? { authorization: `Bearer ${tok}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe.skipIf(!PG_URL)('system settings across two server processes (PostgreSQL)', () => {
  it('a change made through one server is seen by another server process without a restart', async () => {
    const fresh = await freshDatabase();
    const config = { ...loadConfig({}), webDist: path.join(os.tmpdir(), 'ringmes-no-web') };
    await migrate(fresh.database.db);
    await seed(fresh.database.db, { seed: 'minimal', adminPassword: ADMIN_PASSWORD });
    const a = await buildApp(fresh.database, config, { logger: false });
    const b = await serverProcess(fresh.url as string);
    try {
      const inA = async (method: string, url: string, tok?: string, body?: unknown) => {
        const res = await a.inject({
          method: method as any,
          url,
          headers: tok ? { authorization: `Bearer ${tok}` } : {},
          payload: body === undefined ? undefined : (body as any),
        });
        return { status: res.statusCode, body: res.json() };
      };
      const credentials = { userName: 'admin', passWord: ADMIN_PASSWORD, source: 'mes' };
      const ta = (await inA('POST', '/api/v1/sso/login', undefined, credentials)).body.result.token as string;
      const loginB = async () =>
        (await b.call('POST', '/api/v1/sso/login', undefined, credentials)).body.result.token as string;
      const tb = await loginB();

      // Warm B's reads, then change through A.
      expect((await b.call('GET', '/api/v1/sysSetting/brand')).body.result.companyName).toBe(
        'RingMES 轴承有限公司',
      );
      expect(
        (await inA('PUT', '/api/v1/sysSetting/company', ta, { companyName: '二号工厂', logo: null })).status,
      ).toBe(200);
      expect((await b.call('GET', '/api/v1/sysSetting/brand')).body.result.companyName).toBe('二号工厂');

      const allowances = {
        overShipPercent: 7,
        overIssuePercent: 0,
        overDispatchPercent: 0,
        overReceivePercent: 0,
      };
      expect((await inA('PUT', '/api/v1/sysSetting/allowances', ta, allowances)).status).toBe(200);
      expect((await b.call('GET', '/api/v1/sysSetting/allowances', tb)).body.result.overShipPercent).toBe(
        '7',
      );
      expect((await percentSetting(fresh.database.db, 'sales.overShipPercent')).toString()).toBe('7');

      // A shorter idle timeout set on A ends an idle session on B.
      expect(
        (await inA('PUT', '/api/v1/sysSetting/session', ta, { idleMinutes: 30, absoluteHours: 24 })).status,
      ).toBe(200);
      const idle = await loginB();
      await sql`UPDATE user_session SET last_seen_at = now() - interval '40 minutes'
                 WHERE token_hash = sha256(convert_to(${idle}, 'UTF8'))`.execute(fresh.database.db);
      expect((await b.call('GET', '/api/v1/sysSetting/session', idle)).status).toBe(401);
      expect((await b.call('GET', '/api/v1/sysSetting/session', tb)).body.result.idleMinutes).toBe(30);

      // The password minimum set on B applies on A; a document-number rule set on A numbers on B.
      expect((await b.call('PUT', '/api/v1/sysSetting/passwordPolicy', tb, { minLength: 12 })).status).toBe(
        200,
      );
      expect((await inA('GET', '/api/v1/sysSetting/passwordPolicy', ta)).body.result.minLength).toBe(12);
      const rules = (await inA('GET', '/api/v1/sysSetting/docPrefixes', ta)).body.result as {
        defaultPrefix: string;
        prefix: string;
        pattern: string;
      }[];
      const changed = rules.map((r) =>
        r.defaultPrefix === 'XS' ? { ...r, prefix: 'SO', pattern: 'monthly' } : r,
      );
      expect(
        (
          await inA(
            'PUT',
            '/api/v1/sysSetting/docPrefixes',
            ta,
            changed.map(({ defaultPrefix, prefix, pattern }) => ({ defaultPrefix, prefix, pattern })),
          )
        ).status,
      ).toBe(200);
      const seen = (await b.call('GET', '/api/v1/sysSetting/docPrefixes', tb)).body.result as typeof rules;
      expect(seen.find((r) => r.defaultPrefix === 'XS')).toMatchObject({ prefix: 'SO', pattern: 'monthly' });
    } finally {
      await b.stop();
      await a.close();
      await fresh.drop();
    }
  }, 90_000);
});
