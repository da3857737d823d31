import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

describe('HTTP contract', () => {
  it('answers health with the database kind, the release and the schema it holds', async () => {
    const r = await t.call('GET', '/api/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      code: '200',
      message: '操作成功',
      result: { status: 'ok', db: t.database.kind, migrationsPending: 0 },
    });
    expect(r.body.result.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.body.result.schema).toMatch(/^\d{4}_\w+\.sql$/);
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const r = await t.call('GET', '/api/v1/no-such-thing/page', { token });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('404');
    expect(r.body.message).toMatch(/接口不存在/);
  });

  it('answers malformed JSON with a 400 envelope and no parser text', async () => {
    const r = await t.call('POST', '/api/v1/sso/login', {
      raw: '{"userName": "admin",',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: '400', message: '请求体不是有效的 JSON' });
    expect(JSON.stringify(r.body)).not.toMatch(/Unexpected|SyntaxError|position/);
  });

  it('refuses an oversized body', async () => {
    const r = await t.call('POST', '/api/v1/dept/addDept', {
      token,
      raw: JSON.stringify({ deptName: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.body.code).toBe('413');
    expect(r.body.message).toMatch(/请求体过大/);
  });

  it('rejects unknown body fields instead of assigning them', async () => {
    const r = await t.call('POST', '/api/v1/dept/addDept', {
      token,
      body: { deptName: '新部门', id: 999, createdBy: 1, __proto__x: 1, version: 7 },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors?.map((e) => e.field).sort()).toEqual(['__proto__x', 'createdBy', 'id', 'version']);
    const tree = await t.call('POST', '/api/v1/dept/listDeptTree', { token, body: { deptName: '新部门' } });
    expect(JSON.stringify(tree.body.result)).not.toMatch(/新部门/);
  });

  it('lists every bad field with a Chinese message', async () => {
    const r = await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: { userName: 'a', passWord: '123', email: 'nope' },
    });
    expect(r.status).toBe(400);
    const fields = Object.fromEntries(r.body.errors!.map((e) => [e.field, e.message]));
    expect(fields.userName).toMatch(/用户名/);
    expect(fields.passWord).toBe('密码不能少于6位数');
    expect(fields.firstName).toBe('不能为空');
    expect(fields.email).toBe('邮箱格式不正确');
  });

  it('sends security headers and a request id on every answer', async () => {
    const r = await t.call('GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers['x-request-id']).toBe('abc-123');
    const e = await t.call('GET', '/api/v1/nothing');
    expect(e.headers['x-content-type-options']).toBe('nosniff');
  });

  it('formats times as YYYY-MM-DD HH:mm:ss', async () => {
    const r = await t.call('GET', '/api/v1/user/list', { token });
    expect(r.body.result.list[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('pages with pageNum, pageSize, sort, and pageNum=0 for all', async () => {
    for (let i = 0; i < 3; i++) {
      await t.call('POST', '/api/v1/user/newAddUser', {
        token,
        body: { userName: `pager${i}`, firstName: `分页${i}`, passWord: 'secret123' },
      });
    }
    const p = await t.call('GET', '/api/v1/user/list', {
      token,
      query: { pageNum: 2, pageSize: 2, sortField: 'userName', sortOrder: 'desc' },
    });
    expect(p.body.result).toMatchObject({ total: 4, pageNum: 2, pageSize: 2 });
    expect(p.body.result.list.map((u: any) => u.userName)).toEqual(['pager0', 'admin']);
    const all = await t.call('GET', '/api/v1/user/list', { token, query: { pageNum: 0 } });
    expect(all.body.result.list).toHaveLength(4);
    // Pages past the middle are read backwards; stitched together they equal the full list.
    for (const [sortField, sortOrder] of [
      ['userName', 'asc'],
      ['userName', 'desc'],
      ['createdAt', 'desc'],
    ]) {
      const full = (
        await t.call('GET', '/api/v1/user/list', { token, query: { pageNum: 0, sortField, sortOrder } })
      ).body.result.list;
      const pages = [];
      for (let n = 1; n <= 2; n++) {
        pages.push(
          ...(
            await t.call('GET', '/api/v1/user/list', {
              token,
              query: { pageNum: n, pageSize: 3, sortField, sortOrder },
            })
          ).body.result.list,
        );
      }
      expect(pages.map((u: any) => u.userId)).toEqual(full.map((u: any) => u.userId));
    }
    const beyond = await t.call('GET', '/api/v1/user/list', { token, query: { pageNum: 9, pageSize: 3 } });
    expect(beyond.body.result).toMatchObject({ list: [], total: 4 });
    const tooBig = await t.call('GET', '/api/v1/user/list', { token, query: { pageSize: 501 } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors?.[0]).toEqual({ field: 'pageSize', message: '不能大于 500' });
  });

  it('never leaks password hashes', async () => {
    for (const url of [
      '/api/v1/user/list',
      '/api/v1/user/getAllUser',
      '/api/v1/user/getOptionUser',
      '/api/v1/sso/getUserByToken',
    ]) {
      const r = await t.call('GET', url, { token });
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).not.toMatch(/argon2|passwordHash|password_hash/);
    }
  });
});
