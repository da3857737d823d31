// Issue 40 §5: two server processes on one PostgreSQL database serve each other's sessions,
// attachments and exports when they share the file storage (one ATTACHMENT_DIR and EXPORT_DIR on a
// shared filesystem, or S3 for attachments). Each "process" here is an app of its own with its
// own connection pool; deploy/scale-out.sh runs the same through nginx with real processes.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';

let a: TestApp;
let second: Database;
let b: Awaited<ReturnType<typeof buildApp>>;
let token: string;

beforeAll(async () => {
  if (!PG_URL) return;
  a = await createTestApp();
  second = await openDatabase({ databaseUrl: a.url, poolMax: 4 });
  // The same configuration as process A: the shared attachment and export folders.
  b = await buildApp(second, a.config, { logger: false });
  await b.ready();
  token = await a.login();
});
afterAll(async () => {
  await b?.close();
  await second?.close();
  await a?.close();
});

const onB = (method: 'GET' | 'POST', url: string, as = token) =>
  b.inject({ method, url, headers: { authorization: `Bearer ${as}` } });

describe.runIf(PG_URL)('two processes on one database', () => {
  it("accept each other's sessions, and a logout on one ends the session on the other", async () => {
    expect((await onB('GET', `/api/v1/sso/getUserByToken?token=${token}`)).statusCode).toBe(200);
    const other = await a.login();
    expect((await onB('GET', '/api/v1/customer/page', other)).statusCode).toBe(200);
    expect((await a.call('POST', '/vue-element-admin/user/logout', { token: other })).status).toBe(200);
    // B hears of the revocation through LISTEN/NOTIFY (platform/auth/sessions.ts): at once, or nearly.
    let after = await onB('GET', '/api/v1/customer/page', other);
    for (let i = 0; i < 40 && after.statusCode === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await onB('GET', '/api/v1/customer/page', other);
    }
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('407');
  });

  it("serve each other's attachments and export files", async () => {
    const f = factory(a, async () => token);
    const c = { body: { result: await f.create('customer') } };
    const m = { body: { result: await f.create('material-info', { salePrice: '5' }) } };
    const order = await a.call('POST', '/api/v1/sale-order/add', {
      token,
      body: {
        customerId: c.body.result?.id,
        orderDate: '2026-10-08',
        deliveryDate: '2026-11-20',
        lines: [{ materialId: m.body.result?.id, quantity: 1 }],
      },
    });
    expect(order.status, JSON.stringify([c.body, m.body, order.body])).toBe(200);
    const content = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      crypto.randomBytes(4096),
      Buffer.from('\n%%EOF\n'),
    ]);
    const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
    const up = await a.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/upload/sale-order/${order.body.result.id}`,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${token}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="图纸.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(up.statusCode, up.body).toBe(200);
    const got = await onB('GET', `/api/v1/attachment/download/${up.json().result.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(content)).toBe(true);

    const exp = await a.call('GET', '/api/v1/customer/export', { token });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    const file = await onB(
      'GET',
      `/common/download?fileName=${encodeURIComponent(exp.body.result.fileName)}`,
    );
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
