import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// Issue 34 §1 (insider attack): with only `system:app:edit`, an app manager reset the secret of the
// administrator's app, then read receivables and approved a sales order with signed calls; `edit`
// re-enabled a disabled app and lifted its IP allow-list and expiry. Someone else's app is changed
// only by who holds every scope of it, and its secret reset only by its creator (or a super-admin).
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ apiSecretKey: 'test-api-secret-key' });
  admin = await t.login();
});
afterAll(() => t.close());

const SCOPES = ['finance:receivable:list', 'sale:order:list', 'sale:order:approve'];
const APP_MANAGER = ['system:app:list', 'system:app:add', 'system:app:edit', 'system:app:delete'];
const BEYOND = '该应用拥有您不具备的权限，不能修改';

interface Client {
  id: number;
  appKey: string;
  secret: string;
  version: number;
}

async function makeClient(token: string, body: Record<string, unknown>): Promise<Client> {
  const r = await t.call('POST', '/api/v1/threeApp/add', {
    token,
    body: { name: `应用${crypto.randomUUID().slice(0, 8)}`, ...body },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
}

/** A signed GET as the app (platform/auth/api-clients.ts). */
async function signedGet(c: Pick<Client, 'appKey' | 'secret'>, url: string) {
  const timestamp = String(Date.now());
  const hash = crypto.createHash('sha256').update('').digest('hex');
  const signature = crypto
    .createHmac('sha256', c.secret)
    .update(`GET\n${url}\n${timestamp}\n${hash}`)
    .digest('hex');
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { 'x-app-key': c.appKey, 'x-timestamp': timestamp, 'x-signature': signature },
  });
  return res.statusCode;
}

describe("someone else's app is beyond an app manager who lacks its scopes", () => {
  it('cannot reset the secret of the administrator app: no credential, the old secret still signs', async () => {
    const app = await makeClient(admin, { scopes: SCOPES });
    const mgr = await t.userWith(APP_MANAGER);
    const r = await t.call('POST', `/api/v1/threeApp/resetSecret/${app.id}`, { token: mgr.token });
    expect(r).toMatchObject({ status: 403, body: { code: '403' } });
    expect(r.body.result?.secret).toBeUndefined();
    expect(await signedGet(app, '/api/v1/receivable/page')).toBe(200);
  });

  it('cannot re-enable, widen the IP list, lift the expiry or the rate limit of it, rename or delete it', async () => {
    const app = await makeClient(admin, {
      scopes: SCOPES,
      status: '0',
      ipAllow: ['10.1.2.3'],
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      rateLimit: 5,
    });
    const mgr = await t.userWith(APP_MANAGER);
    for (const change of [
      { status: '1' },
      { ipAllow: [] },
      { expiresAt: null },
      { rateLimit: 6000 },
      { name: '改名' },
      { remark: '备注' },
    ]) {
      const r = await t.call('PUT', `/api/v1/threeApp/edit/${app.id}`, { token: mgr.token, body: change });
      expect(r.status, JSON.stringify(change)).toBe(403);
      expect(r.body.message).toContain(BEYOND);
    }
    const del = await t.call('DELETE', `/api/v1/threeApp/delete/${app.id}`, { token: mgr.token });
    expect(del.status).toBe(403);
    const info = await t.call('GET', `/api/v1/threeApp/info/${app.id}`, { token: admin });
    expect(info.body.result).toMatchObject({
      status: '0',
      ipAllow: ['10.1.2.3'],
      rateLimit: 5,
      version: app.version,
    });
    expect(info.body.result.expiresAt).toBeTruthy();
  });

  it('one holding every scope may change it but not take its secret; the creator and a super-admin may do both', async () => {
    const app = await makeClient(admin, { scopes: SCOPES });
    const peer = await t.userWith([...APP_MANAGER, ...SCOPES]);
    const off = await t.call('PUT', `/api/v1/threeApp/edit/${app.id}`, {
      token: peer.token,
      body: { status: '0', remark: '暂停' },
    });
    expect(off.status).toBe(200);
    // A new secret signs as the app's creator (the audit trail, owners, maker ≠ checker).
    const take = await t.call('POST', `/api/v1/threeApp/resetSecret/${app.id}`, { token: peer.token });
    expect(take.status).toBe(403);
    expect(take.body.message).toContain('只有应用的创建人');

    const own = await makeClient(peer.token, { scopes: ['sale:order:list'] });
    const reset = await t.call('POST', `/api/v1/threeApp/resetSecret/${own.id}`, { token: peer.token });
    expect(reset.status).toBe(200);
    expect(await signedGet({ ...own, secret: reset.body.result.secret }, '/api/v1/sale-order/page')).toBe(
      200,
    );
    expect(
      (await t.call('PUT', `/api/v1/threeApp/edit/${own.id}`, { token: peer.token, body: { rateLimit: 10 } }))
        .status,
    ).toBe(200);
    expect((await t.call('POST', `/api/v1/threeApp/resetSecret/${own.id}`, { token: admin })).status).toBe(
      200,
    );
    expect((await t.call('DELETE', `/api/v1/threeApp/delete/${own.id}`, { token: peer.token })).status).toBe(
      200,
    );
  });
});
