import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The example docs/api.md shows, run here against the test server.
import { signedCall } from '../../../docs/examples/signed-call.mjs';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp({ apiSecretKey: 'test-api-secret-key' });
  token = await t.login();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

interface Client {
  id: number;
  appKey: string;
  secret: string;
}

async function makeClient(body: Record<string, unknown>, as = token): Promise<Client> {
  const r = await t.call('POST', '/api/v1/threeApp/add', {
    token: as,
    body: { name: `应用${crypto.randomUUID().slice(0, 8)}`, ...body },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
}

/** A signed call through inject, with every part overridable. */
function signed(
  c: Pick<Client, 'appKey' | 'secret'>,
  method: string,
  url: string,
  body?: unknown,
  opts: { timestamp?: string; sendBody?: string; headers?: Record<string, string> } = {},
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const timestamp = opts.timestamp ?? String(Date.now());
  const hash = crypto.createHash('sha256').update(text).digest('hex');
  const signature = crypto
    .createHmac('sha256', c.secret)
    .update(`${method}\n${url}\n${timestamp}\n${hash}`)
    .digest('hex');
  const headers: Record<string, string> = {
    'x-app-key': c.appKey,
    'x-timestamp': timestamp,
    'x-signature': signature,
    ...opts.headers,
  };
  return { headers, run: () => send(method, url, headers, opts.sendBody ?? (text || undefined)) };
}

async function send(method: string, url: string, headers: Record<string, string>, payload?: string) {
  const h = { ...headers };
  if (payload !== undefined) h['content-type'] = 'application/json';
  const res = await t.app.inject({ method: method as any, url, headers: h, payload });
  return { status: res.statusCode, body: res.json() };
}

describe('third-party apps', () => {
  let client: Client;

  it('creates a client whose secret is shown once and never stored in clear', async () => {
    client = await makeClient({ scopes: ['system:role:list', 'system:setting:edit'] });
    expect(client.appKey).toMatch(/^ak_[0-9a-f]{24}$/);
    expect(client.secret.length).toBeGreaterThanOrEqual(40);
    const info = await t.call('GET', `/api/v1/threeApp/info/${client.id}`, { token });
    expect(info.body.result).not.toHaveProperty('secret');
    expect(info.body.result).not.toHaveProperty('secretEnc');
    const page = await t.call('GET', '/api/v1/threeApp/page', { token });
    expect(JSON.stringify(page.body)).not.toContain(client.secret);
    const row = await t.database.db
      .selectFrom('apiClient')
      .selectAll()
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.secretEnc).toString('utf8')).not.toContain(client.secret);
  });

  it('documents the example that this test runs', () => {
    const example = fs.readFileSync(
      new URL('../../../docs/examples/signed-call.mjs', import.meta.url),
      'utf8',
    );
    const fn = example.slice(example.indexOf('export async function'), example.indexOf('\n}\n') + 2);
    expect(fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8')).toContain(fn);
  });

  it('runs the documented example: a valid signed call acts with the client scopes and is audited', async () => {
    const r = await signedCall({
      baseUrl,
      appKey: client.appKey,
      secret: client.secret,
      path: '/api/v1/role/page?pageSize=5',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result.list.length).toBeGreaterThan(0);

    // A body is covered by the signature: a change made by the app is audited under its key.
    const put = await signedCall({
      baseUrl,
      appKey: client.appKey,
      secret: client.secret,
      method: 'PUT',
      path: '/api/v1/sysSetting/allowances',
      body: { overShipPercent: 5, overIssuePercent: '0', overDispatchPercent: 0, overReceivePercent: '2.5' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.result.overReceivePercent).toBe('2.5');
    const rows = await t.database.db
      .selectFrom('auditLog')
      .select(['entity', 'action', 'userName', 'afterData'])
      .where('userName', '=', client.appKey)
      .orderBy('id')
      .execute();
    expect(rows.filter((r) => r.action === 'call')).toHaveLength(2);
    expect(rows.some((r) => r.entity === 'setting' && r.action === 'update')).toBe(true);
  });

  it('refuses a changed body, a wrong secret, a stale timestamp and a replay', async () => {
    const body = { overShipPercent: 1, overIssuePercent: 0, overDispatchPercent: 0, overReceivePercent: 0 };
    const tampered = signed(client, 'PUT', '/api/v1/sysSetting/allowances', body, {
      sendBody: JSON.stringify({ ...body, overShipPercent: 50 }),
    });
    expect((await tampered.run()).status).toBe(401);

    const wrong = await signed({ ...client, secret: 'not-the-secret' }, 'GET', '/api/v1/role/page').run();
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toContain('签名');

    const stale = await signed(client, 'GET', '/api/v1/role/page', undefined, {
      timestamp: String(Date.now() - 6 * 60_000),
    }).run();
    expect(stale.status).toBe(401);
    expect(stale.body.message).toContain('时间戳');

    const call = signed(client, 'GET', '/api/v1/role/page?pageNum=1');
    expect((await call.run()).status).toBe(200);
    const replay = await call.run();
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('重复');

    const missing = await send('GET', '/api/v1/role/page', { 'x-app-key': client.appKey });
    expect(missing.status).toBe(401);
    const unknown = await signed({ appKey: 'ak_nobody', secret: 'x' }, 'GET', '/api/v1/role/page').run();
    expect(unknown.status).toBe(401);

    const refused = await t.database.db
      .selectFrom('auditLog')
      .select('afterData')
      .where('entity', '=', 'apiClient')
      .where('action', '=', 'call-refused')
      .where('entityId', '=', String(client.id))
      .execute();
    expect(refused.length).toBeGreaterThanOrEqual(4);
  });

  it('answers 403 outside the scopes and on routes open to any signed-in user', async () => {
    expect((await signed(client, 'GET', '/api/v1/user/list').run()).status).toBe(403);
    expect((await signed(client, 'GET', '/api/v1/sysSetting/company').run()).status).toBe(403);
    expect((await signed(client, 'POST', '/api/v1/sso/handoff', {}).run()).status).toBe(403);
  });

  it('downloads its own export while it holds an export scope (issue 44 §6)', async () => {
    const exporter = await makeClient({ scopes: ['factory:material:list', 'factory:material:export'] });
    const made = await signed(exporter, 'GET', '/api/v1/material-info/export').run();
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const url = `/common/download?fileName=${encodeURIComponent(made.body.result.fileName)}`;
    const file = await t.app.inject({ method: 'GET', url, headers: signed(exporter, 'GET', url).headers });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK'); // an .xlsx is a zip
    // An app acts as the user who made it (narrowed to its scopes): another user does not see the file.
    const other = await t.userWith(['factory:material:export']);
    const theirs = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(theirs.statusCode).toBe(404);
    // Without an export scope the download routes are closed to an app.
    const reader = await makeClient({ scopes: ['factory:material:list'] });
    const refused = await signed(reader, 'GET', url).run();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('导出权限');
    // Other routes open to any signed-in user stay closed to apps.
    expect((await signed(exporter, 'GET', '/api/v1/message/page').run()).status).toBe(403);
  });

  it('refuses disabled and expired clients', async () => {
    const c = await makeClient({ scopes: ['system:role:list'] });
    expect((await signed(c, 'GET', '/api/v1/role/page').run()).status).toBe(200);
    const off = await t.call('PUT', `/api/v1/threeApp/edit/${c.id}`, { token, body: { status: '0' } });
    expect(off.status).toBe(200);
    const disabled = await signed(c, 'GET', '/api/v1/role/page').run();
    expect(disabled.status).toBe(401);
    expect(disabled.body.message).toContain('停用');

    await t.call('PUT', `/api/v1/threeApp/edit/${c.id}`, { token, body: { status: '1' } });
    await sql`UPDATE api_client SET expires_at = now() - interval '1 minute' WHERE id = ${c.id}`.execute(
      t.database.db,
    );
    const expired = await signed(c, 'GET', '/api/v1/role/page').run();
    expect(expired.status).toBe(401);
    expect(expired.body.message).toContain('过期');

    const past = await t.call('PUT', `/api/v1/threeApp/edit/${c.id}`, {
      token,
      body: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
  });

  it('applies the IP allow-list', async () => {
    const outside = await makeClient({ scopes: ['system:role:list'], ipAllow: ['10.0.0.0/8'] });
    const r = await signed(outside, 'GET', '/api/v1/role/page').run();
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('IP');
    const inside = await makeClient({ scopes: ['system:role:list'], ipAllow: ['10.0.0.0/8', '127.0.0.1'] });
    expect((await signed(inside, 'GET', '/api/v1/role/page').run()).status).toBe(200);
    const bad = await t.call('POST', '/api/v1/threeApp/add', {
      token,
      body: { name: '坏地址', ipAllow: ['10.0.0.0/33'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0].field).toBe('ipAllow');
  });

  it('limits the calls per minute of a client', async () => {
    const c = await makeClient({ scopes: ['system:role:list'], rateLimit: 3 });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await signed(c, 'GET', `/api/v1/role/page?pageNum=${i + 1}`).run()).status);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('never grants more than the creator holds, and narrows to what the creator still holds', async () => {
    const maker = await t.userWith(['system:app:add', 'system:app:list', 'system:role:list']);
    const beyond = await t.call('POST', '/api/v1/threeApp/add', {
      token: maker.token,
      body: { name: '越权应用', scopes: ['system:role:list', 'system:user:list'] },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toContain('system:user:list');
    const unknown = await t.call('POST', '/api/v1/threeApp/add', {
      token: maker.token,
      body: { name: '未知权限', scopes: ['nope:nope:nope'] },
    });
    expect(unknown.status).toBe(400);

    const tree = await t.call('GET', '/api/v1/threeApp/scopeTree', { token: maker.token });
    expect(JSON.stringify(tree.body.result)).toContain('system:role:list');
    expect(JSON.stringify(tree.body.result)).not.toContain('system:user:list');

    const c = await makeClient({ scopes: ['system:role:list'] }, maker.token);
    expect((await signed(c, 'GET', '/api/v1/role/page').run()).status).toBe(200);
    // The creator loses the permission: so does the app.
    await sql`DELETE FROM role_menu WHERE role_id = ${maker.roleId}
               AND menu_id IN (SELECT id FROM menu WHERE menu_permissions = 'system:role:list')`.execute(
      t.database.db,
    );
    expect((await signed(c, 'GET', '/api/v1/role/page').run()).status).toBe(403);
  });

  it('validates the form in Chinese and needs system:app permissions', async () => {
    const r = await t.call('POST', '/api/v1/threeApp/add', { token, body: { name: '', rateLimit: 0 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    const plain = await t.userWith(['system:role:list']);
    expect((await t.call('GET', '/api/v1/threeApp/page', { token: plain.token })).status).toBe(403);
    expect(
      (await t.call('POST', '/api/v1/threeApp/add', { token: plain.token, body: { name: 'x' } })).status,
    ).toBe(403);
  });

  it('resets the secret (the old one stops working) and deletes a client', async () => {
    const c = await makeClient({ scopes: ['system:role:list'] });
    const reset = await t.call('POST', `/api/v1/threeApp/resetSecret/${c.id}`, { token });
    expect(reset.status).toBe(200);
    const fresh = reset.body.result.secret as string;
    expect(fresh).not.toBe(c.secret);
    expect((await signed(c, 'GET', '/api/v1/role/page').run()).status).toBe(401);
    expect((await signed({ ...c, secret: fresh }, 'GET', '/api/v1/role/page').run()).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/threeApp/delete/${c.id}`, { token })).status).toBe(200);
    expect((await signed({ ...c, secret: fresh }, 'GET', '/api/v1/role/page').run()).status).toBe(401);
  });
});
